// Writing to sessions: the runners the CLI and the extension call.
export { runCompaction, contextTokensAfter, thresholdWarning, type CompactionProposal, type CompactionRunResult, type RunCompactionOptions } from "./run-compaction.js";
export { runBranchSummary, type BranchSummaryProposal, type BranchSummaryRunResult, type RunBranchSummaryOptions } from "./run-branch-summary.js";
export { runNavigate, persistLeafMove, NAVIGATE_CUSTOM_TYPE, type NavigateData, type NavigateOptions, type NavigateResult } from "./run-navigate.js";
export { undoCompaction, type UndoCompactionOptions, type UndoCompactionResult } from "./undo-compaction.js";
export { chooseSummarizer, digestFallbackWarning, type Summarizer, type SummarizerChoice } from "./summarizer.js";
export { DEFAULT_FILES_TOUCHED, authoritativeFilesBlock, type FilesTouchedOptions } from "./files-for-summary.js";
export { readPromptFile, type PromptFileRef } from "./prompt-file.js";
export { RunInputError, type ModelCallSettings, type ProgressListener, type RunOutcome, type RunPhase, type RunProgress } from "./run-common.js";
export { compactionCalls, compactionSpans } from "../agent/compaction-calls.js";
export { renameSession, sanitizeSessionName, type RenameOptions, type RenameResult } from "./rename-session.js";
export { setLabel, type SetLabelOptions, type SetLabelResult } from "./set-label.js";
export { forkSession, planFork, type ForkOptions, type ForkResult } from "./fork-session.js";
export { buildCompactionDraft, NoSummaryModelError, type CompactionDraftOptions, type CompactionDraftResult } from "./compaction-draft.js";
export { buildBranchSummaryText, type BranchSummaryText, type BranchSummaryTextOptions } from "./branch-summary-draft.js";
export { boundSummary, summaryBudget, DEFAULT_SUMMARY_BUDGET_TOKENS, type BoundedSummary } from "./bounded-summary.js";
