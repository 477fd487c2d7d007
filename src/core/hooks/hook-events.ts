// The hook contract, as pi's extension events define it (pi-coding-agent
// core/extensions/types.d.ts): session_before_compact → before_compact,
// session_before_tree → before_branch_summary, session_compact →
// after_compact, session_tree → after_branch_summary.

import type { CompactionPreparation } from "../compaction/prepare-compaction.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../session/format/types.js";

export interface BeforeCompactEvent {
  preparation: CompactionPreparation;
  /** The branch root→leaf being compacted. */
  branchEntries: readonly SessionEntry[];
  customInstructions: string | undefined;
  signal: AbortSignal;
}

/** What a hook may write instead of the model's summary (pi's CompactionResult). */
export interface HookCompaction {
  summary: string;
  /** null: keep nothing (pi 1.5's retain-none; the entry names itself). */
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: unknown;
  /** pi 1.5: the hook's own model usage, stored on the entry. */
  usage?: unknown;
}

export interface BeforeCompactResult {
  cancel?: boolean;
  compaction?: HookCompaction;
}

/** pi's TreePreparation. */
export interface BranchSummaryPreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  entriesToSummarize: readonly SessionEntry[];
  userWantsSummary: boolean;
  customInstructions?: string;
  /** customInstructions replace the default prompt instead of being appended. */
  replaceInstructions?: boolean;
  /** Label to attach to the branch summary entry. */
  label?: string;
}

export interface BeforeBranchSummaryEvent {
  preparation: BranchSummaryPreparation;
  signal: AbortSignal;
}

/** pi's SessionBeforeTreeResult. */
export interface BeforeBranchSummaryResult {
  cancel?: boolean;
  summary?: { summary: string; details?: unknown };
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

export interface AfterCompactEvent {
  /** The entry as written. */
  entry: CompactionEntry;
  /** The summary came from a before_compact hook. */
  fromHook: boolean;
}

export interface AfterBranchSummaryEvent {
  /** The entry as written. */
  entry: BranchSummaryEntry;
  newLeafId: string | null;
  oldLeafId: string | null;
  fromHook: boolean;
}

export interface HookEventMap {
  before_compact: { event: BeforeCompactEvent; result: BeforeCompactResult };
  before_branch_summary: { event: BeforeBranchSummaryEvent; result: BeforeBranchSummaryResult };
  after_compact: { event: AfterCompactEvent; result: void };
  after_branch_summary: { event: AfterBranchSummaryEvent; result: void };
}

export type HookName = keyof HookEventMap;

export type HookHandler<N extends HookName> = (
  event: HookEventMap[N]["event"],
) => HookEventMap[N]["result"] | undefined | void | Promise<HookEventMap[N]["result"] | undefined | void>;
