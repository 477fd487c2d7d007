// omp's context usage (ompContextUsage) kept while entries are appended below
// the leaf, at a cost of the appended entries, not of the branch. omp's context
// is the sum of per-entry messages except for its two post-passes, which look
// across messages: a tool call is stripped while no result anywhere in the
// context pairs it, and a failed (aborted/error) turn is dropped with its later
// results unless the message after it is an interrupted-thinking notice.
//
// So the context's messages (before the passes) are split into a settled part,
// kept only as sums plus the few facts the passes read across (result ids, call
// ids still dangling, call ids of dropped failed turns), and a small window of
// the newest ones, passed again on every append. A prefix settles when nothing
// appended later can change its passes: no call in it dangles, and its last
// message stays whatever follows (not a failed turn, whose fate the next
// message decides, nor a result, which goes with a failed turn). A window
// that grows past `maxWindow` (a dangling call never answered) settles all but
// its newest `keep` messages anyway, its dangling ids watched: a result for one
// of them needs a recount. So do a compaction, a `/clear` and a context notebook
// revision (they change the context wholesale); a branch switch is the caller's.

import type { SessionEntry } from "../../session/format/types.js";
import type { IncrementalUsage } from "../../tokens/context-token-rule.js";
import type { ContextUsage } from "../../tokens/context-usage.js";
import {
  dropFailedTurns,
  isContextNotesEntry,
  latestCompaction,
  ompContextMessagesBeforePasses,
  ompEntryContextMessage,
  stripDanglingToolCalls,
  type OmpContextOptions,
} from "./build-session-context.js";
import { combineOmpUsage, noteUsage, ompContextUsage, ompUsageFacts, type OmpUsageFacts } from "./context-usage.js";
import { isRecord, type OmpMessage } from "./messages.js";
import { countMessageTokens } from "./tokenizer.js";

export interface OmpWindowLimits {
  /** Messages the window may hold before its older part settles with dangling calls watched. */
  maxWindow: number;
  /** Newest messages such a forced settle leaves in the window. */
  keep: number;
}

export const DEFAULT_WINDOW_LIMITS: OmpWindowLimits = { maxWindow: 64, keep: 16 };

const isFailedTurn = (m: OmpMessage): boolean => m.role === "assistant" && (m.stopReason === "aborted" || m.stopReason === "error");
/**
 * A message omp's passes may remove, or whose fate the following message decides:
 * a failed turn, or a result (dropped with a failed turn that called it). A
 * prefix must end at another: its failed turns then see their next message in it.
 */
const mayGo = (m: OmpMessage): boolean => m.role === "toolResult" || isFailedTurn(m);

/** What omp's passes read of a message without throwing (else the count is left to the recount, which does what omp does). */
const wellFormed = (m: unknown): boolean =>
  isRecord(m) && (m.role !== "assistant" || (Array.isArray(m.content) && (m.content as unknown[]).every((b) => isRecord(b))));

interface IdSet {
  has(id: unknown): boolean;
}

function hasDanglingCall(m: OmpMessage, paired: IdSet): boolean {
  if (m.role !== "assistant") return false;
  for (const block of m.content as OmpMessage[]) if (block.type === "toolCall" && !paired.has(block.id)) return true;
  return false;
}

export class OmpIncrementalUsage implements IncrementalUsage {
  private readonly facts: OmpUsageFacts;
  private settledTokens = 0;
  private settledCount = 0;
  /** Tool call ids of the results in the settled part (omp pairs a call with a result anywhere in the context). */
  private readonly resultIds = new Set<unknown>();
  /** Calls in the settled part no result pairs yet: a later result for one changes the settled part. */
  private readonly watchIds = new Set<unknown>();
  /** Calls of failed turns the settled part drops: omp drops their later results too. */
  private readonly droppedCallIds = new Set<unknown>();
  /** The newest messages (before omp's passes), passed again on every append (their counts kept by message). */
  private window: OmpMessage[] = [];
  private readonly counts = new WeakMap<object, number>();
  private current: ContextUsage;
  /** Spent: every later append needs a recount. */
  private spent = false;

  constructor(
    tail: readonly SessionEntry[],
    private readonly load: (entry: SessionEntry) => OmpMessage,
    options: OmpContextOptions = {},
    private readonly limits: OmpWindowLimits = DEFAULT_WINDOW_LIMITS,
  ) {
    const path = tail.map(load);
    this.facts = ompUsageFacts(path);
    const messages = ompContextMessagesBeforePasses(path, latestCompaction(path), options);
    if (!messages.every(wellFormed)) {
      this.spent = true;
      this.current = ompContextUsage(path, options);
      return;
    }
    this.window = messages;
    this.current = this.settle();
  }

  get usage(): ContextUsage {
    return this.current;
  }

  append(entries: readonly SessionEntry[]): ContextUsage | undefined {
    if (this.spent) return undefined;
    const added: OmpMessage[] = [];
    for (const raw of entries) {
      const entry = this.load(raw);
      if (entry.type === "compaction" || entry.type === "reset_boundary" || isContextNotesEntry(entry)) return this.spend();
      noteUsage(this.facts, entry);
      const one = ompEntryContextMessage(entry);
      if (!one) continue;
      const message = one.message;
      if (!wellFormed(message)) return this.spend();
      if (message.role === "toolResult" && this.watchIds.has(message.toolCallId)) return this.spend();
      added.push(message);
    }
    for (const message of added) this.window.push(message);
    this.current = this.settle();
    return this.current;
  }

  private spend(): undefined {
    this.spent = true;
    this.window = [];
    return undefined;
  }

  /** Moves the longest prefix of the window that can settle into the sums; the usage. */
  private settle(): ContextUsage {
    const window = this.window;
    const windowResults = new Set<unknown>();
    for (const m of window) if (m.role === "toolResult") windowResults.add(m.toolCallId);
    const settledResults = this.resultIds;
    const paired: IdSet = { has: (id) => settledResults.has(id) || windowResults.has(id) };
    let firstDangling = window.findIndex((m) => hasDanglingCall(m, paired));
    if (firstDangling < 0) firstDangling = window.length;
    let last = firstDangling - 1;
    while (last >= 0 && mayGo(window[last]!)) last--;
    if (window.length - (last + 1) > this.limits.maxWindow) {
      let forced = window.length - 1 - this.limits.keep;
      while (forced > last && (mayGo(window[forced]!) || hasDanglingCall(window[forced]!, paired))) forced--;
      for (let i = firstDangling; i <= forced; i++) {
        const m = window[i]!;
        if (m.role !== "assistant") continue;
        for (const block of m.content as OmpMessage[]) if (block.type === "toolCall" && !paired.has(block.id)) this.watchIds.add(block.id);
      }
      last = forced;
    }
    if (last >= 0) {
      const part = last + 1 === window.length ? window : window.slice(0, last + 1);
      const dropped: OmpMessage[] = [];
      const passed = this.passed(part, paired, (m) => dropped.push(m));
      for (const m of passed) this.settledTokens += countMessageTokens(m, { excludeEncryptedReasoning: true });
      this.settledCount += passed.length;
      for (const m of part) if (m.role === "toolResult") settledResults.add(m.toolCallId);
      for (const m of dropped) for (const block of m.content as OmpMessage[]) if (block.type === "toolCall") this.droppedCallIds.add(block.id);
      this.window = last + 1 === window.length ? [] : window.slice(last + 1);
    }
    const rest = this.passed(this.window, paired);
    return combineOmpUsage(this.facts, this.settledTokens + this.sum(rest), this.settledCount + rest.length);
  }

  /** omp's passes on `messages` after the settled part: calls paired by `paired`, results of the settled part's dropped turns dropped. */
  private passed(messages: readonly OmpMessage[], paired: IdSet, onDrop?: (m: OmpMessage) => void): OmpMessage[] {
    const out = messages.slice();
    stripDanglingToolCalls(out, paired);
    dropFailedTurns(out, onDrop);
    if (this.droppedCallIds.size === 0) return out;
    return out.filter((m) => !(m.role === "toolResult" && this.droppedCallIds.has(m.toolCallId)));
  }

  private sum(messages: readonly OmpMessage[]): number {
    let total = 0;
    for (const m of messages) {
      let n = this.counts.get(m);
      if (n === undefined) {
        n = countMessageTokens(m, { excludeEncryptedReasoning: true });
        this.counts.set(m, n);
      }
      total += n;
    }
    return total;
  }
}
