// Facts about a session's current branch (leaf, path, context tokens, model,
// name, labels, counts) kept up to date from appended entries alone.
//
// Use: `const facts = new LiveSessionFacts(session)` once (reads the metas of
// the branch and parses only the bodies it needs: the entries after the last
// usage, the last model, …); after `refreshSession(session)` call
// `facts.update(result.session)`: for an append (same session, extended in
// place) only the new entries are looked at; for a rewrite (a new index)
// everything is computed again. `facts.current` is the latest result.
// The token rule is pluggable (pi 0.73's by default; `semanticsFor(v).contextTokenRule`).

import type { SessionModelRef } from "../context/session-model.js";
import { sessionModel } from "../context/session-model.js";
import { pi073ContextTokenRule, type BranchTokenView, type ContextTokenRule, type EntryTokens, type IncrementalUsage, type RunningUsage } from "../tokens/context-token-rule.js";
import type { ContextUsage } from "../tokens/context-usage.js";
import { BranchPath } from "../session/index/branch-path.js";
import type { EntryKind, EntryMeta } from "../session/format/entry-meta.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { SessionIndex } from "../session/index/session-index.js";
import type { SessionEntry } from "../session/format/types.js";

/** Line bytes per chunk of prepareAhead (a few ms of parsing). */
const PREPARE_CHUNK_BYTES = 128 * 1024;
/** Appended entries a running count built ahead is fed at once on an update (more: left for prepareAhead or the next need). */
const FOLLOW_AHEAD_ENTRIES = 16;

export interface BranchFacts {
  /** The current leaf (the last entry), null for a session without entries. */
  leafId: string | null;
  /** Entries root→leaf. */
  branchLength: number;
  /** All entries in the file (header excluded). */
  entryCount: number;
  /** `message` entries in the file, as pi's session list counts them. */
  messageCount: number;
  name: string | null;
  labels: ReadonlyMap<string, string>;
  /** The context on the branch, by the token rule. */
  usage: ContextUsage;
  /** The later of the last model_change and the last assistant's provider/model on the branch. */
  model: SessionModelRef | null;
  thinkingLevel: string;
  /** A compaction is on the branch. */
  hasCompaction: boolean;
  /** Latest user/assistant activity in the file (ms), 0 when none. */
  lastActivityTime: number;
}

/** The last position on the branch where `read` gives a value; follows cuts and appends. */
class LastOnPath<T> {
  position = -1;
  value: T | undefined;

  constructor(
    /** Whether the entry may give a value, from its type and role (no meta is made for the others). */
    private readonly candidate: (kind: EntryKind) => boolean,
    private readonly read: (meta: EntryMeta) => T | undefined,
  ) {}

  update(path: BranchPath, keep: number): void {
    const rescan = this.position >= keep;
    if (rescan) {
      this.position = -1;
      this.value = undefined;
    }
    for (let i = path.length - 1; i >= keep; i--) if (this.try(path, i)) return;
    if (rescan) for (let i = keep - 1; i >= 0; i--) if (this.try(path, i)) return;
  }

  private try(path: BranchPath, position: number): boolean {
    if (!this.candidate(path.kindAt(position))) return false;
    const value = this.read(path.at(position));
    if (value === undefined) return false;
    this.position = position;
    this.value = value;
    return true;
  }
}

function modelOf(entry: unknown): SessionModelRef | undefined {
  return sessionModel([entry as never]).model ?? undefined;
}

export class LiveSessionFacts implements BranchTokenView {
  private session: LoadedSession;
  private path!: BranchPath;
  /** By meta.index. */
  private tokens: (EntryTokens | undefined)[] = [];
  /** By path position: messages in [0, position). */
  /** By position: messages in [0, position), valid for positions ≤ messagePrefixLength; extended when a rule counts messages. */
  private messagePrefix = new Int32Array(1024);
  private messagePrefixLength = 0;
  private usageAt!: LastOnPath<number>;
  private resetAt!: LastOnPath<true>;
  private modelAt!: LastOnPath<SessionModelRef>;
  private thinkingAt!: LastOnPath<string>;
  private compactionAt!: LastOnPath<true>;
  /**
   * Context edits on the branch whose target was not before them (by path position), when the
   * rule counts edits: pi 1.5 applies one to an entry that takes its target id later, which a
   * carried-over result does not see (rare: the usage is then counted again).
   */
  private editsAhead: { position: number; targetId: string }[] = [];
  /** The rule's running count over positions [0, running.length) of the branch; dropped when the branch is cut there. */
  private running: RunningUsage | undefined;
  /** The rule's count kept over appends (`rule.incremental`), for positions [0, incrementalLength) of the branch. */
  private incremental: IncrementalUsage | undefined;
  private incrementalLength = -1;
  private facts!: BranchFacts;

  constructor(
    session: LoadedSession,
    readonly rule: ContextTokenRule = pi073ContextTokenRule,
  ) {
    this.session = session;
    this.reset(session.index);
  }

  get current(): BranchFacts {
    return this.facts;
  }

  /** An entry on the branch resets the context (a compaction, for pi 0.73's rule). */
  get branchHasReset(): boolean {
    return this.resetAt.position >= 0;
  }

  /** The rule's running count when it has been fed, for a catalogue row to keep (see catalogue/projected-resume.ts). */
  get runningUsage(): RunningUsage | undefined {
    return this.running;
  }

  /** The rule's count kept over appends when it counted the whole current branch (a catalogue row keeps it in memory). */
  get incrementalCount(): IncrementalUsage | undefined {
    return this.incremental && this.incrementalLength === this.path.length ? this.incremental : undefined;
  }

  /** The branch's metas, root first (no bodies). */
  get branch(): readonly EntryMeta[] {
    return this.path.entries;
  }

  /** Brings the facts up to date with `session` (the same one extended by an append, or a re-read one). */
  update(session: LoadedSession = this.session): BranchFacts {
    if (session.index !== this.path.index) {
      this.session = session;
      this.reset(session.index);
    } else {
      this.session = session;
      const before = this.path.length;
      const previous = { usage: this.facts.usage, branchHasReset: this.branchHasReset };
      const keep = this.path.sync();
      // The branch only grew: the rule may carry the previous usage over the new entries.
      this.advance(keep, keep === before ? previous : undefined);
    }
    return this.facts;
  }

  private reset(index: SessionIndex): void {
    this.path = new BranchPath(index);
    this.tokens = [];
    this.editsAhead = [];
    this.running = undefined;
    this.incremental = undefined;
    const rule = this.rule;
    this.usageAt = new LastOnPath((m) => rule.isUsageCandidate(m), (m) => this.tokensOf(m).usage);
    this.resetAt = new LastOnPath((m) => rule.isResetCandidate(m), (m) => (this.tokensOf(m).reset ? true : undefined));
    this.modelAt = new LastOnPath(
      (m) => m.type === "model_change" || (m.type === "message" && m.role === "assistant"),
      (m) => modelOf(this.session.entryAt(m)),
    );
    this.thinkingAt = new LastOnPath(
      (m) => m.type === "thinking_level_change",
      (m) => {
        const level = (this.session.entryAt(m) as { thinkingLevel?: unknown }).thinkingLevel;
        return typeof level === "string" ? level : undefined;
      },
    );
    this.compactionAt = new LastOnPath((m) => m.type === "compaction", () => true);
    this.advance(0);
  }

  private advance(keep: number, appendedTo?: { usage: ContextUsage; branchHasReset: boolean }): void {
    const path = this.path;
    this.messagePrefixLength = Math.min(this.messagePrefixLength, keep);
    if (this.running && this.running.length > keep) this.running = undefined;
    if (this.editsAhead.length > 0 && this.editsAhead[this.editsAhead.length - 1]!.position >= keep) this.editsAhead = this.editsAhead.filter((e) => e.position < keep);
    let targetAppended = false;
    for (let i = keep; i < path.length; i++) {
      const kind = path.kindAt(i);
      if (this.editsAhead.length > 0 && this.editsAhead.some((e) => e.targetId === path.at(i).id)) targetAppended = true;
      if (kind.type === "context_edit" && this.rule.isResetCandidate(kind)) this.noteEditAhead(i);
    }
    // The carried-over usage does not know the edit of an entry just appended.
    if (targetAppended) appendedTo = undefined;
    for (const last of [this.usageAt, this.resetAt, this.modelAt, this.thinkingAt, this.compactionAt] as LastOnPath<unknown>[]) {
      last.update(path, keep);
    }
    // A count built ahead follows the branch while it is whole (a few appended entries: cheap); a compaction makes it useless.
    if (this.running && !this.rule.running!.mayApplyLater(this)) this.running = undefined;
    else if (this.running && this.running.length === keep && path.length - keep <= FOLLOW_AHEAD_ENTRIES) this.feedRunning(() => false);
    const index = path.index;
    // A reused id makes positions by id ambiguous (pi's first-match lookups): compute from scratch.
    if (index.duplicateCount > 0) this.incremental = undefined;
    const usage = index.duplicateCount > 0 ? this.rule.usageOfPath(this.session.pathTo()) : this.usageOfBranch(keep, appendedTo);
    const model = index.duplicateCount > 0 ? sessionModel(this.session.pathTo()) : { model: this.modelAt.value ?? null, thinkingLevel: this.thinkingAt.value ?? "off" };
    this.facts = {
      leafId: index.leafId,
      branchLength: path.length,
      entryCount: index.size,
      messageCount: index.messageCount,
      name: index.sessionName ?? null,
      labels: index.labels,
      usage,
      model: model.model,
      thinkingLevel: model.thinkingLevel,
      hasCompaction: this.compactionAt.position >= 0,
      lastActivityTime: index.lastActivityTime,
    };
  }

  /** Remembers the context edit at `position` when its target is not on the branch before it. */
  private noteEditAhead(position: number): void {
    const targetId = (this.session.entryAt(this.path.at(position)) as { targetId?: unknown }).targetId;
    if (typeof targetId !== "string") return;
    const target = this.path.positionOf(targetId);
    if (target < 0 || target > position) this.editsAhead.push({ position, targetId });
  }

  private usageOfBranch(keep: number, appendedTo?: { usage: ContextUsage; branchHasReset: boolean }): ContextUsage {
    const fromView = this.rule.usage(this);
    if (fromView) return fromView;
    if (appendedTo && this.rule.extend) {
      const added: EntryTokens[] = [];
      for (let i = keep; i < this.path.length; i++) added.push(this.tokensAt(i));
      const extended = this.rule.extend(appendedTo, added);
      if (extended) return extended;
    }
    if (this.rule.running?.applies(this)) {
      // Built once (one pass over the branch, unless prepareAhead did it), then fed only what was appended.
      return this.feedRunning(() => false)!.usage();
    }
    if (this.rule.incremental) return this.incrementalUsage(keep, appendedTo !== undefined);
    const start = this.rule.recountStart?.(this) ?? 0;
    if (start === 0) return this.rule.usageOfPath(this.session.pathTo());
    return this.rule.usageOfPath(this.entriesFrom(start));
  }

  /** The rule's kept count carried over the appended entries, else started again from `recountStart`. */
  private incrementalUsage(keep: number, appended: boolean): ContextUsage {
    if (appended && this.incremental && this.incrementalLength === keep) {
      const usage = this.incremental.append(this.entriesFrom(keep));
      this.incrementalLength = this.path.length;
      if (usage) return usage;
    }
    this.incremental = this.rule.incremental!(this.entriesFrom(this.rule.recountStart?.(this) ?? 0));
    this.incrementalLength = this.path.length;
    return this.incremental.usage;
  }

  private entriesFrom(start: number): SessionEntry[] {
    const entries: SessionEntry[] = [];
    for (let i = start; i < this.path.length; i++) entries.push(this.session.entryAt(this.path.at(i)));
    return entries;
  }

  /**
   * Builds ahead, off the write path, what a later append may need and would
   * otherwise read the whole branch for: the rule's running count (pi 1.5 on a
   * branch without a compaction, where the first context edit makes pi estimate
   * the whole projected context). Works in chunks of about `chunkBytes` of
   * lines (at least one entry), asking `stop` before each; true when nothing is left to prepare. The facts
   * are the same whether or not (or how far) this ran.
   */
  prepareAhead(stop: () => boolean, chunkBytes = PREPARE_CHUNK_BYTES): boolean {
    const running = this.rule.running;
    if (!running || this.path.index.duplicateCount > 0 || !running.mayApplyLater(this)) return true;
    return this.feedRunning(stop, chunkBytes) !== undefined;
  }

  /** Whether prepareAhead has work left. */
  get preparedAhead(): boolean {
    const running = this.rule.running;
    if (!running || this.path.index.duplicateCount > 0 || !running.mayApplyLater(this)) return true;
    return this.running !== undefined && this.running.length === this.path.length;
  }

  /** Feeds the running count up to the leaf (bodies read in file blocks, not kept); undefined when `stop` said so first. */
  private feedRunning(stop: () => boolean, chunkBytes = PREPARE_CHUNK_BYTES): RunningUsage | undefined {
    const path = this.path;
    const running = (this.running ??= this.rule.running!.create({
      positionOf: (id) => this.path.positionOf(id),
      entryAt: (p) => this.session.entryAt(this.path.at(p)),
    }));
    while (running.length < path.length) {
      if (stop()) return undefined;
      const from = running.length;
      if (path.length - from <= FOLLOW_AHEAD_ENTRIES) {
        // A few (usually just appended, so cached) bodies.
        for (let i = from; i < path.length; i++) running.append(this.session.entryAt(path.at(i)));
        continue;
      }
      const metas: EntryMeta[] = [];
      for (let i = from, bytes = 0; i < path.length && (metas.length === 0 || bytes < chunkBytes); i++) {
        const meta = path.at(i);
        metas.push(meta);
        bytes += meta.length;
      }
      this.session.eachEntryAt(metas, (entry) => running.append(entry));
    }
    return running;
  }

  private tokensOf(meta: EntryMeta): EntryTokens {
    let t = this.tokens[meta.index];
    if (t === undefined) {
      t = this.rule.entryTokens(this.session.entryAt(meta));
      this.tokens[meta.index] = t;
    }
    return t;
  }

  // BranchTokenView, for the rule.
  get length(): number {
    return this.path.length;
  }

  typeAt(position: number): string {
    return this.path.kindAt(position).type;
  }

  tokensAt(position: number): EntryTokens {
    return this.tokensOf(this.path.at(position));
  }

  get lastUsage(): number {
    return this.usageAt.position;
  }

  get lastReset(): number {
    return this.resetAt.position;
  }

  get lastCompaction(): number {
    return this.compactionAt.position;
  }

  positionOf(id: string): number {
    return this.path.positionOf(id);
  }

  estimateSum(from: number, to: number): number {
    let sum = 0;
    for (let i = from; i < to; i++) {
      if (this.rule.messagesFromMeta(this.path.kindAt(i)) === 0) continue;
      sum += this.tokensOf(this.path.at(i)).estimate;
    }
    return sum;
  }

  messageCount(from: number, to: number): number {
    if (to <= from) return 0;
    if (this.messagePrefixLength < to) this.extendMessagePrefix(to);
    return this.messagePrefix[to]! - this.messagePrefix[from]!;
  }

  /** The message counts up to position `to` (bodies whose kind does not tell are parsed once). */
  private extendMessagePrefix(to: number): void {
    if (this.messagePrefix.length < to + 1) {
      const bigger = new Int32Array(Math.max(to + 1, this.messagePrefix.length * 2));
      bigger.set(this.messagePrefix);
      this.messagePrefix = bigger;
    }
    const path = this.path;
    for (let i = this.messagePrefixLength; i < to; i++) {
      const fromMeta = this.rule.messagesFromMeta(path.kindAt(i));
      this.messagePrefix[i + 1] = this.messagePrefix[i]! + (fromMeta ?? this.tokensOf(path.at(i)).messages);
    }
    this.messagePrefixLength = to;
  }
}

/** The same facts from scratch (the reference the live ones are tested against). */
export function branchFactsFromScratch(session: LoadedSession, rule: ContextTokenRule = pi073ContextTokenRule): BranchFacts {
  const path = session.pathTo();
  const model = sessionModel(path);
  const index = session.index;
  return {
    leafId: index.leafId,
    branchLength: path.length,
    entryCount: index.size,
    messageCount: index.entries.filter((m) => m.type === "message").length,
    name: index.sessionName ?? null,
    labels: index.labels,
    usage: rule.usageOfPath(path),
    model: model.model,
    thinkingLevel: model.thinkingLevel,
    hasCompaction: path.some((e) => e.type === "compaction"),
    lastActivityTime: index.entries.reduce((t, m) => (m.activityTime !== undefined && m.activityTime > t ? m.activityTime : t), 0),
  };
}
