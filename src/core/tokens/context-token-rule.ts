// How a pi version counts the tokens of a branch's context, split so that live
// facts can update it from appended entries alone: what one entry contributes
// (from its body, once), and how the contributions combine on a path (from a
// few positions the tracker keeps: the last usage, the last reset). pi 0.73's
// rule is here; pi 1.5's (usage before the last compaction or context_edit does
// not count, all-zero usage is ignored, system messages count) is
// agent/pi-1.5/context-token-rule.ts; callers pick one by
// `semanticsFor(version).contextTokenRule`.

import { contextMessageOf } from "../context/build-session-context.js";
import { createCompactionSummaryMessage } from "../context/message-factories.js";
import type { EntryKind } from "../session/format/entry-meta.js";
import type { SessionEntry } from "../session/format/types.js";
import { calculateContextTokens, getAssistantUsage } from "./context-tokens.js";
import { contextUsage, type ContextUsage } from "./context-usage.js";
import { estimateTokens } from "./estimate-tokens.js";

/** What one entry on a branch contributes to the context, from its body alone. */
export interface EntryTokens {
  /** Messages it adds to the model's context (0 or 1). */
  messages: number;
  /** pi's estimate of those messages' tokens. */
  estimate: number;
  /** Context tokens reported by a usage that counts (a completed assistant answer). */
  usage?: number;
  /** It resets what came before (a compaction): its own message's estimate, and the first entry before it that is kept. */
  reset?: { estimate: number; keepFromId?: string };
}

/** A root→leaf branch as a rule sees it: positions 0…length-1, with the tracker's bookkeeping. */
export interface BranchTokenView {
  readonly length: number;
  /** The entry type at a position (from the index: no body parsed). */
  typeAt(position: number): string;
  /** Contributions of the entry at a position (parsed once, then cached). */
  tokensAt(position: number): EntryTokens;
  /** Position of the last entry with `usage`, or -1. */
  readonly lastUsage: number;
  /** Position of the last entry with `reset`, or -1. */
  readonly lastReset: number;
  /** Position of the last compaction, or -1. */
  readonly lastCompaction: number;
  /** Position of an entry on this branch, or -1. */
  positionOf(id: string): number;
  /** Sum of `estimate` over positions [from, to). */
  estimateSum(from: number, to: number): number;
  /** Sum of `messages` over positions [from, to) (kept as prefix counts: O(1)). */
  messageCount(from: number, to: number): number;
}

/** The branch as a running count reads it: positions from the root. */
export interface RunningBranch {
  /** Position of an entry on the branch, or -1. */
  positionOf(id: string): number;
  entryAt(position: number): SessionEntry;
}

/** A count of the branch's context fed its entries root first, one by one. */
export interface RunningUsage {
  /** Positions fed so far. */
  readonly length: number;
  append(entry: SessionEntry): void;
  usage(): ContextUsage;
}

/** A count of the branch's context kept up to date from the entries appended below its leaf (see ContextTokenRule.incremental). */
export interface IncrementalUsage {
  readonly usage: ContextUsage;
  /**
   * The usage after `entries` (root-ward first) were appended directly below the
   * leaf; undefined when they need a recount (this count is then spent).
   */
  append(entries: readonly SessionEntry[]): ContextUsage | undefined;
}

export interface ContextTokenRule {
  readonly name: string;
  /** Whether an entry can carry `usage` (others are not parsed when looking for the last usage). */
  isUsageCandidate(meta: EntryKind): boolean;
  /** Whether an entry can carry `reset`. */
  isResetCandidate(meta: EntryKind): boolean;
  /** `messages` of the entry when its meta tells, else undefined (then its body is parsed). An entry with 0 here must have `estimate` 0. */
  messagesFromMeta(meta: EntryKind): number | undefined;
  entryTokens(entry: SessionEntry): EntryTokens;
  /**
   * The branch's context usage; should touch only positions after the last usage
   * or reset. Undefined when the view cannot tell (the caller extends its previous
   * result over an append, else uses `usageOfPath`).
   */
  usage(view: BranchTokenView): ContextUsage | undefined;
  /** The same from scratch on a whole path (the reference, and the fallback for odd files). */
  usageOfPath(path: readonly SessionEntry[]): ContextUsage;
  /**
   * Where on the branch `usageOfPath` may start when `usage` cannot tell: the
   * entries before it do not change the result (ids on the branch are unique
   * when this is asked). 0 when unknown.
   */
  recountStart?(view: BranchTokenView): number;
  /**
   * A count started on the branch from `recountStart` (its usage is
   * `usageOfPath(tail)`), for the caller to keep while the branch only grows:
   * a rule whose context is not a sum of per-entry parts (omp's post-passes)
   * keeps what an append may change in it.
   */
  incremental?(tail: readonly SessionEntry[]): IncrementalUsage;
  /**
   * The usage after `added` (root-ward first) were appended directly below the
   * previous leaf, from the previous result alone; undefined when earlier
   * entries are needed (the caller then reads the branch again).
   */
  extend?(previous: { usage: ContextUsage; branchHasReset: boolean }, added: readonly EntryTokens[]): ContextUsage | undefined;
  /**
   * For branches where neither `usage` nor `extend` can tell and `applies`: a
   * running count the caller keeps while the branch only grows (created lazily,
   * fed from where it stopped), instead of `usageOfPath` on every reset.
   */
  running?: {
    applies(view: BranchTokenView): boolean;
    /**
     * Whether a later append may make `applies` true on this branch, so the
     * count is worth building ahead, off the write path (LiveSessionFacts.prepareAhead).
     */
    mayApplyLater(view: BranchTokenView): boolean;
    create(branch: RunningBranch): RunningUsage;
  };
}

/** Context messages an entry adds, from its meta alone (undefined: read the body) — the same in both pis. */
export function contextMessagesFromMeta(meta: EntryKind): number | undefined {
  if (meta.type === "message") return meta.role !== undefined ? 1 : undefined;
  if (meta.type === "custom_message") return 1;
  if (meta.type === "branch_summary") return undefined;
  return 0;
}

/** pi 0.73.1: compaction.js's estimateContextTokens, with getContextUsage's "unknown after a compaction" as an estimate. */
export const pi073ContextTokenRule: ContextTokenRule = {
  name: "pi-0.73",
  isUsageCandidate: (meta) => meta.type === "message" && meta.role === "assistant",
  isResetCandidate: (meta) => meta.type === "compaction",
  messagesFromMeta: contextMessagesFromMeta,
  entryTokens(entry) {
    if (entry.type === "compaction") {
      const summary = createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
      const keepFromId = typeof entry.firstKeptEntryId === "string" ? entry.firstKeptEntryId : undefined;
      return { messages: 0, estimate: 0, reset: { estimate: estimateTokens(summary), keepFromId } };
    }
    const message = contextMessageOf(entry);
    if (!message) return { messages: 0, estimate: 0 };
    const usage = getAssistantUsage(message);
    const out: EntryTokens = { messages: 1, estimate: estimateTokens(message) };
    if (usage) out.usage = calculateContextTokens(usage);
    return out;
  },
  usage(view) {
    const n = view.length;
    const c = view.lastReset;
    const u = view.lastUsage;
    if (c >= 0) {
      const reset = view.tokensAt(c).reset!;
      const k = reset.keepFromId !== undefined ? view.positionOf(reset.keepFromId) : -1;
      const kept = k >= 0 && k < c ? view.messageCount(k, c) : 0;
      const messageCount = 1 + kept + view.messageCount(c + 1, n);
      const after = u > c ? view.tokensAt(u).usage! : 0;
      // pi looks only at the newest completed answer after the compaction: no usage, or 0, is "unknown".
      if (after <= 0) {
        const keptTokens = k >= 0 && k < c ? view.estimateSum(k, c) : 0;
        return { tokens: reset.estimate + keptTokens + view.estimateSum(c + 1, n), source: "estimate-after-compaction", messageCount };
      }
      return { tokens: after + view.estimateSum(u + 1, n), source: "usage", messageCount };
    }
    const messageCount = view.messageCount(0, n);
    if (u >= 0) return { tokens: view.tokensAt(u).usage! + view.estimateSum(u + 1, n), source: "usage", messageCount };
    return { tokens: view.estimateSum(0, n), source: "estimate", messageCount };
  },
  usageOfPath: (path) => contextUsage(path),
  extend(previous, added) {
    if (added.some((a) => a.reset)) return undefined;
    let last = -1;
    for (let i = added.length - 1; i >= 0 && last < 0; i--) if (added[i]!.usage !== undefined) last = i;
    const sum = (from: number) => added.slice(from).reduce((n, a) => n + a.estimate, 0);
    const messageCount = previous.usage.messageCount + added.reduce((n, a) => n + a.messages, 0);
    if (last >= 0) {
      const usage = added[last]!.usage!;
      if (!previous.branchHasReset || usage > 0) return { tokens: usage + sum(last + 1), source: "usage", messageCount };
      // A zero usage after a compaction: pi's estimate of the whole context, known only if that is what we had.
      if (previous.usage.source !== "estimate-after-compaction") return undefined;
    }
    return { tokens: previous.usage.tokens + sum(0), source: previous.usage.source, messageCount };
  },
};
