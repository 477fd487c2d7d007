// What a pi 1.5 catalogue row keeps so that a context edit appended to a listed
// session is applied from the appended bytes alone. After a context edit pi
// 1.5 counts its pure projected estimate of the context (the current system
// message once plus every other projected message: the whole branch without a
// compaction, the compaction's kept range on with one); a row keeps that sum,
// the projected message count, the per-entry contributions of the branch's
// newest context entries (pi's own edits — auto-retry, overflow recovery —
// target the answer and tool results it just wrote) and, below a compaction,
// how many answers with usage follow it. An edit of one of them changes the sum
// by the difference; an edit of an older entry, an appended compaction, a new
// system message, a junk edit or anything unexpected drops it (the file is read
// in full again, which keeps it anew from what that read counted).
//
// Kept by a full read of a pi 1.5 row from what it counts anyway: pi's running
// sum when the rule needed the whole branch, or the entries it recounted from.
// A read that needed neither (an answer with usage after every reset, no
// compaction) keeps nothing: summing there costs one more parse of every body
// (~3× the row on 100 MB), too dear for every listing. Such a row gets its sum
// once the session is live (an append: pi writes a context edit only into a
// session it runs, after the user's message and the answer), computed ahead in
// the catalogue's child process (sum-ahead.ts). An edit before that, or in a
// row stored without it, reads the file once.

import { isObject, messageOf } from "../context/context-message.js";
import { estimateTokens } from "../agent/pi-1.5/estimate-tokens.js";
import { getAssistantUsage } from "../agent/pi-1.5/projected-tokens.js";
import { buildSessionProjection, projectContextEntry } from "../agent/pi-1.5/projection.js";
import { getCurrentSystemMessage } from "../agent/pi-1.5/system-message.js";
import { pi15ContextTokenRule, type Pi15EntryTokens } from "../agent/pi-1.5/context-token-rule.js";
import { RunningProjectedEstimate } from "../agent/pi-1.5/running-projected-estimate.js";
import type { ContextTokenRule, EntryTokens, RunningUsage } from "../tokens/context-token-rule.js";
import type { ContextUsage } from "../tokens/context-usage.js";
import type { EntryKind } from "../session/format/entry-meta.js";
import type { ContextEditEntry, SessionEntry } from "../session/format/types.js";

/** Newest context entries of the branch a row keeps (an edit of an older one reads the file). */
export const RECENT_ENTRIES = 32;
/** Branch positions looked at for them (entries without a message — labels, edits — are skipped). */
const RECENT_WALK = 4 * RECENT_ENTRIES;
/** Ids longer than this are not kept (pi's are 8 hex digits): bounds a row's bytes. */
const MAX_ID_LENGTH = 64;
/** Roles whose content a context edit replaces (projectContextEntry); other roles' edits read the file. */
const REPLACEABLE = new Set(["user", "assistant", "toolResult", "custom"]);
/** How a stored resume names a role: the replaceable ones by a letter, every other as "other" (an edit of it reads the file). */
const ROLE_CODE: Record<string, string> = { user: "u", assistant: "a", toolResult: "t", custom: "c" };
const CODE_ROLE: Record<string, string> = { u: "user", a: "assistant", t: "toolResult", c: "custom", o: "other" };
/** Characters of a stored resume's recent entries (an id holding one is not kept: an edit of it reads the file). */
const SEPARATORS = /[,;]/;

/**
 * One kept entry: its id, its message's role, its projected contribution (non-system estimate,
 * messages), and 1 when it is an answer with usage after the branch's compaction, projected or
 * omitted by an edit (else 0).
 */
export type RecentEntry = [id: string, role: string, estimate: number, messages: number, answered: 0 | 1];

export interface ProjectedResume {
  /** Σ estimateTokens of the branch's projected non-system messages (edits applied). */
  estimate: number;
  /** Projected messages on the branch (system ones too). */
  messages: number;
  /** estimateTokens of the current system message (getCurrentSystemMessage of the projection), 0 without one. */
  system: number;
  /**
   * The newest context entries of the branch, oldest first, as one string (a row keeps no object per
   * entry): `id,role,estimate,messages,answered` joined by ";", the role as a letter (encodeRecent).
   */
  recent: string;
  /**
   * Only on a branch with a compaction (the projection then starts at its kept range): projected
   * answers with usage after it; while there are none pi's usage is "unknown" (we show the estimate).
   */
  answered?: number;
}

/** The role of the one message an entry projects, from its kind; undefined for entries without one. */
function roleOf(kind: EntryKind): string | undefined {
  if (kind.type === "message") return kind.role;
  if (kind.type === "custom_message") return "custom";
  if (kind.type === "branch_summary") return "branchSummary";
  return undefined;
}

/** The target of a context_edit body, when it is an id. */
export function editTarget(entry: SessionEntry): string | undefined {
  const target: unknown = (entry as { targetId?: unknown }).targetId;
  return typeof target === "string" ? target : undefined;
}

/** Whether a row counted by `rule` keeps a projected resume. */
export function keepsProjection(rule: ContextTokenRule): boolean {
  return rule === pi15ContextTokenRule;
}

/**
 * The resume of a branch whose running projected estimate was fed in full (the
 * row's own count: no extra pass), or undefined when it cannot be kept.
 */
export function projectedResumeOf(
  running: RunningUsage | undefined,
  length: number,
  at: (position: number) => { id: string; kind: EntryKind },
): ProjectedResume | undefined {
  if (!(running instanceof RunningProjectedEstimate) || running.length !== length) return undefined;
  const totals = running.totals();
  if (totals.danglingEdits > 0) return undefined;
  const recent: RecentEntry[] = [];
  for (let p = length - 1; p >= 0 && p >= length - RECENT_WALK && recent.length < RECENT_ENTRIES; p--) {
    const { id, kind } = at(p);
    const role = roleOf(kind);
    if (role === undefined) continue;
    if (!keepsId(id)) break;
    const { estimate, messages } = running.entryTotals(p);
    recent.push([id, role, estimate, messages, 0]);
  }
  recent.reverse();
  return { estimate: totals.estimate, messages: totals.messages, system: totals.system, recent: encodeRecent(recent) };
}

/**
 * The resume of a branch whose context the row counted from `path`, the entries
 * from the rule's recount start to the leaf (already parsed for the row: no
 * extra read): pi 1.5's projection of them is the branch's. Undefined when
 * another compaction is inside (its messages then depend on where it is).
 */
export function projectedResumeOfPath(path: readonly SessionEntry[]): ProjectedResume | undefined {
  let compactionAt = -1;
  for (let i = 0; i < path.length; i++) {
    if (path[i]!.type !== "compaction") continue;
    if (compactionAt >= 0) return undefined;
    compactionAt = i;
  }
  // pi's "answered after the compaction": entries after it on the path (the kept ones come first in the projection).
  const after = new Set<string>();
  if (compactionAt >= 0) for (let i = compactionAt + 1; i < path.length; i++) after.add(path[i]!.id);
  const projection = buildSessionProjection(path);
  let estimate = 0;
  let messages = 0;
  let answered = 0;
  const recent: RecentEntry[] = [];
  const entries = projection.entries;
  const from = Math.max(0, entries.length - RECENT_WALK);
  for (let i = 0; i < entries.length; i++) {
    const { sourceEntry, messages: projected } = entries[i]!;
    let entryEstimate = 0;
    for (const message of projected) if (!(isObject(message) && message.role === "system")) entryEstimate += estimateTokens(message);
    estimate += entryEstimate;
    messages += projected.length;
    // An answer with usage (an edit replaces its content, never its usage), counted while it is projected:
    // one omitted by an edit is an answer again once a later edit restores it.
    const message = sourceEntry.type === "message" && after.has(sourceEntry.id) ? messageOf(sourceEntry) : undefined;
    const answers = message !== undefined && getAssistantUsage(message) !== undefined;
    if (answers && projected.length > 0) answered++;
    if (i < from) continue;
    const role = roleOf(kindOfEntry(sourceEntry));
    if (role !== undefined && keepsId(sourceEntry.id)) recent.push([sourceEntry.id, role, entryEstimate, projected.length, answers ? 1 : 0]);
  }
  const current = getCurrentSystemMessage(projection.messages);
  const resume: ProjectedResume = { estimate, messages, system: current ? estimateTokens(current) : 0, recent: encodeRecent(recent.slice(-RECENT_ENTRIES)) };
  if (compactionAt >= 0) resume.answered = answered;
  return resume;
}

function kindOfEntry(entry: SessionEntry): EntryKind {
  if (entry.type !== "message") return { type: entry.type };
  const role: unknown = messageOf(entry)?.role;
  return { type: entry.type, role: typeof role === "string" ? role : undefined };
}

function keepsId(id: string): boolean {
  return id.length <= MAX_ID_LENGTH && !SEPARATORS.test(id);
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;

/** The stored form of recent entries (their ids are kept ones: keepsId). */
export function encodeRecent(recent: readonly RecentEntry[]): string {
  return recent.map(([id, role, estimate, messages, answered]) => `${id},${ROLE_CODE[role] ?? "o"},${estimate},${messages},${answered}`).join(";");
}

/** The entries of a stored `recent`, or undefined when it is damaged. */
export function decodeRecent(recent: string): RecentEntry[] | undefined {
  if (recent === "") return [];
  const parts = recent.split(";");
  if (parts.length > RECENT_ENTRIES) return undefined;
  const out: RecentEntry[] = [];
  for (const part of parts) {
    const f = part.split(",");
    if (f.length !== 5) return undefined;
    const [id, code, e, m, a] = f as [string, string, string, string, string];
    const role = CODE_ROLE[code];
    const estimate = /^\d{1,15}$/.test(e) ? Number(e) : NaN;
    const messages = /^\d{1,15}$/.test(m) ? Number(m) : NaN;
    if (id === "" || id.length > MAX_ID_LENGTH || role === undefined || !isCount(estimate) || !isCount(messages) || (a !== "0" && a !== "1")) return undefined;
    out.push([id, role, estimate, messages, a === "1" ? 1 : 0]);
  }
  return out;
}

/**
 * A stored projected resume, or undefined when it is damaged. A log written before recent entries
 * were one string holds them as arrays: taken too (the same catalogue version).
 */
export function validProjectedResume(value: unknown): ProjectedResume | undefined {
  if (!isObject(value)) return undefined;
  const { estimate, messages, system, recent, answered } = value as Record<string, unknown>;
  if (!isCount(estimate) || !isCount(messages) || !isCount(system)) return undefined;
  if (answered !== undefined && !isCount(answered)) return undefined;
  let stored: string;
  if (typeof recent === "string") {
    if (!decodeRecent(recent)) return undefined;
    stored = recent;
  } else {
    if (!Array.isArray(recent) || recent.length > RECENT_ENTRIES) return undefined;
    for (const r of recent) {
      if (!Array.isArray(r) || r.length !== 5 || typeof r[0] !== "string" || r[0].length > MAX_ID_LENGTH || typeof r[1] !== "string" || !isCount(r[2]) || !isCount(r[3]) || (r[4] !== 0 && r[4] !== 1)) return undefined;
    }
    // An id with a separator cannot be stored as a string: the entries up to it are left out (an edit of them reads the file).
    let from = 0;
    (recent as RecentEntry[]).forEach((r, i) => {
      if (!keepsId(r[0])) from = i + 1;
    });
    stored = encodeRecent((recent as RecentEntry[]).slice(from));
  }
  const resume: ProjectedResume = { estimate, messages, system, recent: stored };
  if (answered !== undefined) resume.answered = answered;
  return resume;
}

/** Projected contribution of an entry with `role` whose content an edit replaced. */
function replacedEstimate(role: string, edit: ContextEditEntry): number {
  const base = { id: "", parentId: null, timestamp: "" };
  const entry = (role === "custom" ? { type: "custom_message", ...base, customType: "", content: [], display: false } : { type: "message", ...base, message: { role, content: null } }) as SessionEntry;
  let estimate = 0;
  for (const message of projectContextEntry(entry, edit)) estimate += estimateTokens(message);
  return estimate;
}

/** A resume carried over appended entries, one at a time, root-ward first; `lost` once it cannot follow. */
export class ProjectedTail {
  private readonly resume: Omit<ProjectedResume, "recent">;
  private readonly recent: RecentEntry[];
  private edited = -1;
  lost = false;

  constructor(previous: ProjectedResume) {
    const { recent, ...resume } = previous;
    this.resume = resume;
    const decoded = decodeRecent(recent);
    this.recent = decoded ?? [];
    if (!decoded) this.lose();
  }

  /** Adds the appended entry of `kind` with the rule's `tokens` (its body read through `body` when it is an edit). */
  add(kind: EntryKind, id: string, tokens: EntryTokens, body: () => SessionEntry, index: number): void {
    if (this.lost) return;
    if (kind.type === "compaction" || (tokens as Pi15EntryTokens).system) return this.lose();
    if (kind.type === "context_edit") return this.edit(body() as ContextEditEntry, index);
    const r = this.resume;
    r.estimate += tokens.estimate;
    r.messages += tokens.messages;
    const role = roleOf(kind);
    const answered = r.answered !== undefined && tokens.usage !== undefined;
    if (answered) r.answered!++;
    // Not kept (an edit of it then reads the file).
    if (role === undefined || !keepsId(id)) return;
    this.recent.push([id, role, tokens.estimate, tokens.messages, answered ? 1 : 0]);
    if (this.recent.length > RECENT_ENTRIES) this.recent.shift();
  }

  private edit(edit: ContextEditEntry, index: number): void {
    this.edited = index;
    const replacement: unknown = edit.replacement;
    if (typeof edit.targetId !== "string" || (replacement !== null && !isObject(replacement))) return this.lose();
    const r = this.resume;
    let target: RecentEntry | undefined;
    for (let i = this.recent.length - 1; i >= 0 && !target; i--) if (this.recent[i]![0] === edit.targetId) target = this.recent[i];
    if (!target || !REPLACEABLE.has(target[1])) return this.lose();
    const estimate = replacement === null ? 0 : replacedEstimate(target[1], edit);
    const messages = replacement === null ? 0 : 1;
    r.estimate += estimate - target[2];
    r.messages += messages - target[3];
    // An answer after the compaction omitted or restored (a replacement keeps its usage).
    if (target[4] === 1 && r.answered !== undefined) r.answered += (messages > 0 ? 1 : 0) - (target[3] > 0 ? 1 : 0);
    target[2] = estimate;
    target[3] = messages;
  }

  private lose(): void {
    this.lost = true;
  }

  /**
   * pi 1.5's usage after the appended entries (`added`, as `add` saw them), when
   * they hold a context edit: the newest answer's usage if it comes after the
   * last edit, else the pure projected estimate.
   */
  usageAfterEdits(added: readonly EntryTokens[]): ContextUsage {
    const r = this.resume;
    // After a compaction and before an answer with usage, pi's usage is unknown: its projected estimate.
    if (r.answered === 0) return { tokens: r.system + r.estimate, source: "estimate-after-compaction", messageCount: r.messages };
    let lastUsage = -1;
    for (let i = added.length - 1; i > this.edited && lastUsage < 0; i--) if (added[i]!.usage !== undefined) lastUsage = i;
    if (lastUsage >= 0) {
      let tokens = added[lastUsage]!.usage!;
      for (let i = lastUsage + 1; i < added.length; i++) tokens += added[i]!.estimate;
      return { tokens, source: "usage", messageCount: r.messages };
    }
    return { tokens: r.system + r.estimate, source: "estimate", messageCount: r.messages };
  }

  get sawEdit(): boolean {
    return this.edited >= 0;
  }

  get current(): ProjectedResume | undefined {
    return this.lost ? undefined : { ...this.resume, recent: encodeRecent(this.recent) };
  }
}
