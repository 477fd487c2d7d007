// Which pi's semantics a catalogue counts its rows with.

import type { PiVersion } from "../session/format/pi-version.js";

export interface CatalogueOptions {
  /** --pi-version or a setting other than auto: every session is counted with it. */
  explicitVersion?: PiVersion;
  /** Otherwise, the version of sessions without a pi 1.x marker (installed pi; default 0.73); those with one are pi 1.5. */
  defaultVersion?: PiVersion;
}
