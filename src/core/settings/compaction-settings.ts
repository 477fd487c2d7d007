// The settings pi reads for compaction and branch summaries, with pi 0.73.1's
// defaults (settings-manager.js getCompactionSettings / getBranchSummarySettings).

export interface CompactionSettings {
  enabled: boolean;
  reserveTokens: number;
  keepRecentTokens: number;
}

export interface BranchSummarySettings {
  reserveTokens: number;
  /** pi: skip the "summarize the branch?" question in /tree. */
  skipPrompt: boolean;
}

export const DEFAULT_COMPACTION_SETTINGS: Readonly<CompactionSettings> = Object.freeze({
  enabled: true,
  reserveTokens: 16384,
  keepRecentTokens: 20000,
});

export const DEFAULT_BRANCH_SUMMARY_SETTINGS: Readonly<BranchSummarySettings> = Object.freeze({
  reserveTokens: 16384,
  skipPrompt: false,
});
