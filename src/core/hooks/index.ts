// Summary hooks with pi's extension-event contract: before/after compaction and branch summary, run by pi's rules.

export { type BeforeBranchSummaryEvent, type BeforeBranchSummaryResult, type BeforeCompactEvent, type BeforeCompactResult, type HookCompaction } from "./hook-events.js";
export { type HookFailure, SummaryHooks } from "./summary-hooks.js";
