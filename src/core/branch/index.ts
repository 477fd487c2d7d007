export {
  BRANCH_SUMMARY_MAX_TOKENS,
  branchSummaryTokenBudget,
  buildBranchSummaryRequest,
  composeBranchSummary,
  DEFAULT_CONTEXT_WINDOW,
  NO_CONTENT_SUMMARY,
  type BranchSummaryRequest,
  type BranchSummaryRequestInput,
} from "./branch-summary-request.js";
export {
  branchSourceFromEntries,
  branchSourceFromSession,
  collectEntriesForBranchSummary,
  type BranchEntries,
  type BranchSource,
} from "./collect-entries.js";
export { findCommonAncestor } from "./common-ancestor.js";
export { branchSummaryPlacement, resolveNavigationTarget, type NavigationTarget } from "./navigation-target.js";
export { getMessageFromBranchEntry, prepareBranchEntries, type PreparedBranchEntries } from "./prepare-branch-entries.js";
export { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT } from "./prompts.js";
