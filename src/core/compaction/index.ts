export {
  buildCompactionResult,
  mergeSplitTurnSummary,
  NO_PRIOR_HISTORY,
  planSummaryCalls,
  type CompactionResult,
  type SummaryCalls,
} from "./compaction-result.js";
export { findCutPoint, findTurnStartIndex, findValidCutPoints, type CutPointResult } from "./cut-points.js";
export {
  describePreparation,
  type CompactablePreparationJson,
  type NotCompactablePreparationJson,
  type PreparationJson,
} from "./describe-preparation.js";
export { getMessageFromEntry, getMessageFromEntryForCompaction } from "./entry-message.js";
export {
  addFileOpsFromDetails,
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  fileOpsFromLists,
  fileOpsToLists,
  formatFileOperations,
  type FileLists,
  type FileOperationLists,
  type FileOperations,
} from "./file-ops.js";
export {
  planCompaction,
  prepareCompaction,
  type CompactionPlan,
  type CompactionPreparation,
  type NotCompactableCode,
} from "./prepare-compaction.js";
export {
  SUMMARIZATION_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";
export { serializeConversation, TOOL_RESULT_MAX_CHARS, truncateForSummary } from "./serialize-conversation.js";
export {
  buildSummaryRequest,
  HISTORY_MAX_TOKENS_FACTOR,
  summaryMaxTokens,
  TURN_PREFIX_MAX_TOKENS_FACTOR,
  type SummaryKind,
  type SummaryRequest,
  type SummaryRequestInput,
} from "./summary-request.js";
