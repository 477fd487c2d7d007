export { choosePiVersion, type ChoosePiVersionInput, type PiVersionChoice, type PiVersionSource } from "./choose-pi-version.js";
export { findInstalledPi, piPackageOf, type InstalledPi } from "./installed-pi.js";
export type { AgentSemantics } from "./agent-semantics.js";
export { formatPiVersion, isPiVersion, parsePiVersion, PI_RELEASE, PI_VERSIONS, type PiVersion } from "../session/format/pi-version.js";
export { findPi1xMarker, sessionPi1xMarker, type Pi1xMarker } from "../session/dialect/pi1x-markers.js";
export { PI_0_73_SEMANTICS } from "./pi-0.73/semantics.js";
export { PI_1_5_SEMANTICS } from "./pi-1.5/semantics.js";
export { pi15ContextTokenRule } from "./pi-1.5/context-token-rule.js";
export { buildSessionProjection, projectContextEntry, sessionEntryToContextMessages, type ProjectedEntry, type SessionProjection } from "./pi-1.5/projection.js";
export { getCurrentSystemMessage, getCurrentTools } from "./pi-1.5/system-message.js";

import type { AgentSemantics } from "./agent-semantics.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { PI_0_73_SEMANTICS } from "./pi-0.73/semantics.js";
import { PI_1_5_SEMANTICS } from "./pi-1.5/semantics.js";

export function semanticsFor(version: PiVersion): AgentSemantics {
  return version === "1.5" ? PI_1_5_SEMANTICS : PI_0_73_SEMANTICS;
}
