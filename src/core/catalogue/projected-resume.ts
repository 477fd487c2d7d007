// What a pi 1.5 catalogue row keeps so that a context edit appended to a listed
// session is applied from the appended bytes alone. On a branch without a
// compaction pi 1.5 counts, after a context edit, its pure projected estimate
// of the whole branch (the current system message once plus every other
// projected message); a row keeps that sum, the projected message count, and
// the per-entry contributions of the branch's newest context entries (pi's own
// edits — auto-retry, overflow recovery — target the answer and tool results it
// just wrote). An edit of one of them changes the sum by the difference; an
// edit of an older entry, a compaction, a new system message, a reused or
// dangling edit target, or anything unexpected drops it (the file is read in
// full again, which builds it anew when pi's rule then needs the whole sum).

import { isObject } from "../context/context-message.js";
import { estimateTokens } from "../pi-version/v1_5/estimate-tokens.js";
import { projectContextEntry } from "../pi-version/v1_5/projection.js";
import { pi15ContextTokenRule, type Pi15EntryTokens } from "../pi-version/v1_5/context-token-rule.js";
import { RunningProjectedEstimate } from "../pi-version/v1_5/running-projected-estimate.js";
import type { ContextTokenRule, EntryTokens, RunningUsage } from "../tokens/context-token-rule.js";
import type { ContextUsage } from "../tokens/context-usage.js";
import type { EntryKind } from "../session/entry-meta.js";
import type { ContextEditEntry, SessionEntry } from "../session/types.js";

/** Newest context entries of the branch a row keeps (an edit of an older one reads the file). */
export const RECENT_ENTRIES = 32;
/** Branch positions looked at for them (entries without a message — labels, edits — are skipped). */
const RECENT_WALK = 4 * RECENT_ENTRIES;
/** Ids longer than this are not kept (pi's are 8 hex digits): bounds a row's bytes. */
const MAX_ID_LENGTH = 64;
/** Roles whose content a context edit replaces (projectContextEntry); other roles' edits read the file. */
const REPLACEABLE = new Set(["user", "assistant", "toolResult", "custom"]);

/** One kept entry: its id, its message's role, and its projected contribution (non-system estimate, messages). */
export type RecentEntry = [id: string, role: string, estimate: number, messages: number];

export interface ProjectedResume {
  /** Σ estimateTokens of the branch's projected non-system messages (edits applied). */
  estimate: number;
  /** Projected messages on the branch (system ones too). */
  messages: number;
  /** estimateTokens of the current system message (getCurrentSystemMessage of the projection), 0 without one. */
  system: number;
  /** The newest context entries of the branch, oldest first. */
  recent: RecentEntry[];
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
    if (id.length > MAX_ID_LENGTH) break;
    const { estimate, messages } = running.entryTotals(p);
    recent.push([id, role, estimate, messages]);
  }
  recent.reverse();
  return { estimate: totals.estimate, messages: totals.messages, system: totals.system, recent };
}

/** A stored projected resume, or undefined when it is damaged. */
export function validProjectedResume(value: unknown): ProjectedResume | undefined {
  if (!isObject(value)) return undefined;
  const { estimate, messages, system, recent } = value as Record<string, unknown>;
  const count = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v >= 0;
  if (!count(estimate) || !count(messages) || !count(system) || !Array.isArray(recent) || recent.length > RECENT_ENTRIES) return undefined;
  for (const r of recent) {
    if (!Array.isArray(r) || r.length !== 4 || typeof r[0] !== "string" || r[0].length > MAX_ID_LENGTH || typeof r[1] !== "string" || !count(r[2]) || !count(r[3])) return undefined;
  }
  return { estimate, messages, system, recent: recent as RecentEntry[] };
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
  private readonly resume: ProjectedResume;
  private edited = -1;
  lost = false;

  constructor(previous: ProjectedResume) {
    this.resume = { ...previous, recent: previous.recent.map((r) => [...r] as RecentEntry) };
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
    // Not kept (an edit of it then reads the file).
    if (role === undefined || id.length > MAX_ID_LENGTH) return;
    r.recent.push([id, role, tokens.estimate, tokens.messages]);
    if (r.recent.length > RECENT_ENTRIES) r.recent.shift();
  }

  private edit(edit: ContextEditEntry, index: number): void {
    this.edited = index;
    const replacement: unknown = edit.replacement;
    if (typeof edit.targetId !== "string" || (replacement !== null && !isObject(replacement))) return this.lose();
    const r = this.resume;
    let target: RecentEntry | undefined;
    for (let i = r.recent.length - 1; i >= 0 && !target; i--) if (r.recent[i]![0] === edit.targetId) target = r.recent[i];
    if (!target || !REPLACEABLE.has(target[1])) return this.lose();
    const estimate = replacement === null ? 0 : replacedEstimate(target[1], edit);
    const messages = replacement === null ? 0 : 1;
    r.estimate += estimate - target[2];
    r.messages += messages - target[3];
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
    return this.lost ? undefined : this.resume;
  }
}
