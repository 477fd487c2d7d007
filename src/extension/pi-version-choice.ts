// Which pi's semantics the extension applies to a session: the
// piSessions.piVersion setting when it is not "auto", else automatic (the
// session's pi 1.x markers, then the pi on PATH, then 0.73).
import { choosePiVersion, type PiVersionChoice } from "../core/agent";
import type { LoadedSession } from "../core/session/open/open-session";
import type { ExtensionSettings } from "./settings";

export const PI_VERSION_SETTING_NAME = "the piSessions.piVersion setting";

export function piVersionChoice(session: LoadedSession, settings: Pick<ExtensionSettings, "piVersion">): PiVersionChoice {
  return choosePiVersion({ explicit: settings.piVersion, explicitFrom: PI_VERSION_SETTING_NAME, session });
}
