export { choosePiVersion, type ChoosePiVersionInput, type PiVersionChoice, type PiVersionSource } from "./choose-pi-version.js";
export { findInstalledPi, piPackageOf, type InstalledPi } from "./installed-pi.js";
export type { PiSemantics } from "./pi-semantics.js";
export { formatPiVersion, isPiVersion, parsePiVersion, PI_RELEASE, PI_VERSIONS, type PiVersion } from "./pi-version.js";
export { findPi1xMarker, sessionPi1xMarker, type Pi1xMarker } from "./session-markers.js";
export { PI_0_73_SEMANTICS } from "./semantics-0.73.js";
export { PI_1_5_SEMANTICS } from "./semantics-1.5.js";
export { pi15ContextTokenRule } from "./v1_5/context-token-rule.js";
export { buildSessionProjection, projectContextEntry, sessionEntryToContextMessages, type ProjectedEntry, type SessionProjection } from "./v1_5/projection.js";
export { getCurrentSystemMessage, getCurrentTools } from "./v1_5/system-message.js";

import type { PiSemantics } from "./pi-semantics.js";
import type { PiVersion } from "./pi-version.js";
import { PI_0_73_SEMANTICS } from "./semantics-0.73.js";
import { PI_1_5_SEMANTICS } from "./semantics-1.5.js";

export function semanticsFor(version: PiVersion): PiSemantics {
  return version === "1.5" ? PI_1_5_SEMANTICS : PI_0_73_SEMANTICS;
}
