// What pi's own hooks (session_before_compact, session_before_tree) get from
// the core: used by the pi extension face (src/pi-extension/), no pi imports.
export { compactionForPi, StillOverThreshold, type PiCompaction, type PiCompactionInput } from "./compaction-for-pi.js";
export { treeSummaryForPi, type PiTreeInput, type PiTreeSummary } from "./tree-summary-for-pi.js";
export { parsePresetFlags, type PresetFlags } from "./preset-flags.js";
export type { PiHookOutcome } from "./attempts.js";
