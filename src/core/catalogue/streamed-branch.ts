// The current branch's context usage and model for a streamed catalogue row,
// from an EntryTable and bodies read again by offset. It asks the token rule
// exactly what LiveSessionFacts asks on a fresh session (same positions, same
// bodies parsed, in the same order), so the row equals the full-index row —
// including a body that cannot be read again, which throws in both.

import { sessionModel, type SessionModelRef } from "../context/session-model.js";
import type { BranchTokenView, ContextTokenRule, EntryTokens, IncrementalUsage, RunningUsage } from "../tokens/context-token-rule.js";
import type { ContextUsage } from "../tokens/context-usage.js";
import type { EntryMeta } from "../session/format/entry-meta.js";
import type { SessionEntry } from "../session/format/types.js";
import type { EntryTable } from "./entry-table.js";

export interface StreamedBranchFacts {
  usage: ContextUsage;
  model: SessionModelRef | null;
  /** A context reset (by the rule) is on the branch. */
  branchHasReset: boolean;
  /** The rule's running count, when the usage was counted by it (fed the whole branch). */
  running?: RunningUsage;
  /** The entries the usage was recounted from (the rule's recount start to the leaf), when it was. */
  recounted?: readonly SessionEntry[];
  /** The rule's count kept over appends (`rule.incremental`), started on the recounted entries, when the rule has one. */
  count?: IncrementalUsage;
}

function modelOf(entry: unknown): SessionModelRef | undefined {
  return sessionModel([entry as never]).model ?? undefined;
}

export class StreamedBranch implements BranchTokenView {
  private readonly tokens = new Map<number, EntryTokens>();
  /** By position: messages in [0, position); made when a rule first counts messages (it may parse every body). */
  private messagePrefix: Int32Array | undefined;
  private readonly positions: Int32Array;
  readonly lastUsage: number;
  readonly lastReset: number;
  readonly lastCompaction: number;

  constructor(
    private readonly table: EntryTable,
    /** Entry numbers root→leaf. */
    private readonly branch: Int32Array,
    private readonly rule: ContextTokenRule,
    private readonly body: (meta: EntryMeta) => SessionEntry,
  ) {
    this.positions = new Int32Array(table.size);
    for (let p = 0; p < branch.length; p++) this.positions[branch[p]!] = p + 1;
    // The order LiveSessionFacts looks them up in (usage, reset, model, thinking level, compaction).
    this.lastUsage = this.lastWhere((m) => rule.isUsageCandidate(m), (m) => this.tokensOf(m).usage);
    this.lastReset = this.lastWhere((m) => rule.isResetCandidate(m), (m) => (this.tokensOf(m).reset ? true : undefined));
    this.lastWhere(
      (m) => m.type === "model_change" || (m.type === "message" && m.role === "assistant"),
      (m) => (this.model = modelOf(this.body(m))),
    );
    this.lastWhere(
      (m) => m.type === "thinking_level_change",
      (m) => {
        const level = (this.body(m) as { thinkingLevel?: unknown }).thinkingLevel;
        return typeof level === "string" ? level : undefined;
      },
    );
    this.lastCompaction = this.lastWhere((m) => m.type === "compaction", () => true);
  }

  /** The model of the last model_change or assistant answer on the branch that names one. */
  private model: SessionModelRef | undefined;

  private running: RunningUsage | undefined;
  private recounted: SessionEntry[] | undefined;
  private count: IncrementalUsage | undefined;

  facts(): StreamedBranchFacts {
    const usage = this.usage();
    const facts: StreamedBranchFacts = { usage, model: this.model ?? null, branchHasReset: this.lastReset >= 0 };
    if (this.running) facts.running = this.running;
    if (this.recounted) facts.recounted = this.recounted;
    if (this.count) facts.count = this.count;
    return facts;
  }

  /** The id and kind of the entry at a branch position. */
  entryAt(position: number): { id: string; kind: EntryMeta } {
    const i = this.branch[position]!;
    return { id: this.table.ids[i]!, kind: this.table.kind(i) };
  }

  private usage(): ContextUsage {
    const rule = this.rule;
    const fromView = rule.usage(this);
    if (fromView) return fromView;
    if (rule.running?.applies(this)) return this.feedRunning().usage();
    const start = rule.recountStart?.(this) ?? 0;
    const path: SessionEntry[] = [];
    for (let p = start; p < this.branch.length; p++) path.push(this.body(this.metaAt(p)));
    this.recounted = path;
    // As LiveSessionFacts counts: the rule's kept count (its usage is usageOfPath's), for the row to carry over appends.
    if (rule.incremental) {
      this.count = rule.incremental(path);
      return this.count.usage;
    }
    return rule.usageOfPath(path);
  }

  /**
   * The rule's running count fed the whole branch (every body parsed again), when the rule has one
   * that may apply to this branch later: for a catalogue row whose usage did not need it (pi 1.5 with
   * an answer after every reset) to keep pi's projected sum all the same. Undefined otherwise.
   */
  runningAhead(): RunningUsage | undefined {
    if (this.running) return this.running;
    if (!this.rule.running?.mayApplyLater(this)) return undefined;
    try {
      return this.feedRunning();
    } catch {
      // A body the row did not need cannot be parsed (the skim does not check every byte): the row keeps no sum.
      this.running = undefined;
      return undefined;
    }
  }

  private feedRunning(): RunningUsage {
    const running = this.rule.running!.create({ positionOf: (id) => this.positionOf(id), entryAt: (p) => this.body(this.metaAt(p)) });
    for (let p = 0; p < this.branch.length; p++) running.append(this.body(this.metaAt(p)));
    this.running = running;
    return running;
  }

  /** The last position whose entry is a candidate (asked of its kind) and gives a value, or -1. */
  private lastWhere(candidate: (kind: EntryMeta) => boolean, read: (meta: EntryMeta) => unknown): number {
    for (let p = this.branch.length - 1; p >= 0; p--) {
      if (candidate(this.kindAt(p)) && read(this.metaAt(p)) !== undefined) return p;
    }
    return -1;
  }

  /** Type and role only (see EntryTable.kind). */
  private kindAt(position: number): EntryMeta {
    return this.table.kind(this.branch[position]!);
  }

  private metaAt(position: number): EntryMeta {
    return this.table.meta(this.branch[position]!);
  }

  private tokensOf(meta: EntryMeta): EntryTokens {
    let t = this.tokens.get(meta.index);
    if (t === undefined) {
      t = this.rule.entryTokens(this.body(meta));
      this.tokens.set(meta.index, t);
    }
    return t;
  }

  // BranchTokenView, for the rule.
  get length(): number {
    return this.branch.length;
  }

  typeAt(position: number): string {
    return this.kindAt(position).type;
  }

  tokensAt(position: number): EntryTokens {
    const i = this.branch[position]!;
    const cached = this.tokens.get(i);
    return cached ?? this.tokensOf(this.table.meta(i));
  }

  positionOf(id: string): number {
    const i = this.table.numberOf(id);
    return i === undefined ? -1 : this.positions[i]! - 1;
  }

  estimateSum(from: number, to: number): number {
    let sum = 0;
    for (let p = from; p < to; p++) {
      if (this.rule.messagesFromMeta(this.kindAt(p)) === 0) continue;
      sum += this.tokensAt(p).estimate;
    }
    return sum;
  }

  messageCount(from: number, to: number): number {
    if (to <= from) return 0;
    let prefix = this.messagePrefix;
    if (!prefix) {
      prefix = new Int32Array(this.branch.length + 1);
      for (let p = 0; p < this.branch.length; p++) prefix[p + 1] = prefix[p]! + (this.rule.messagesFromMeta(this.kindAt(p)) ?? this.tokensAt(p).messages);
      this.messagePrefix = prefix;
    }
    return prefix[to]! - prefix[from]!;
  }
}
