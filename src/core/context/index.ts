export { bashExecutionToText } from "./bash-execution-text.js";
export { buildContextFromPath, buildSessionContext, type ContextModel, type SessionContext } from "./build-session-context.js";
export { messageOf, type ContextMessage } from "./context-message.js";
export { convertToLlm } from "./convert-to-llm.js";
export { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./message-factories.js";
export {
  BRANCH_SUMMARY_PREFIX,
  BRANCH_SUMMARY_SUFFIX,
  COMPACTION_SUMMARY_PREFIX,
  COMPACTION_SUMMARY_SUFFIX,
} from "./message-wrappers.js";
export { branchPath, indexEntriesById, walkToRoot, type EntriesById, type RootPath } from "./path-walk.js";
