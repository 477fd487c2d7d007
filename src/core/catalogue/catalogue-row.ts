// One catalogue row: what lists show about a session file without opening it
// (names, counts, dates, context tokens, model, spend, size), computed from a
// full read, or carried forward from the previous row and the appended lines.

import { closeSync, openSync } from "node:fs";
import { sessionFromBytes, type LoadedSession } from "../session/open/open-session.js";
import { readRange } from "../session/bytes/read-range.js";
import { LiveSessionFacts } from "../live/live-facts.js";
import { firstUserMessageText } from "../session/open/session-info.js";
import type { SessionModelRef } from "../context/session-model.js";
import { sessionModel } from "../context/session-model.js";
import type { ContextTokenRule, EntryTokens, IncrementalUsage } from "../tokens/context-token-rule.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { semanticsOf, type AgentSemantics } from "../agent/index.js";
import { findPi1xMarker, sessionPi1xMarker, type Pi1xMarker } from "../session/dialect/pi1x-markers.js";
import { ompMarkOfEntry, sessionOmpMarker } from "../session/dialect/omp-markers.js";
import { isOmpOnlyEntryType } from "../session/format/omp-entry-types.js";
import type { AgentName } from "../session/format/agent-version.js";
import { OMP_LIST_PREFIX_BYTES, readOmpListing } from "../discovery/omp-listing.js";
import type { EntryMeta } from "../session/format/entry-meta.js";
import type { SessionEntry } from "../session/format/types.js";
import { IdFilter } from "./id-filter.js";
import { editTarget, keepsProjection, ProjectedTail, projectedResumeOf, projectedResumeOfPath, type ProjectedResume } from "./projected-resume.js";
import type { ContextTokenSource } from "../tokens/context-usage.js";
import { forkTime, SpendSlotsBuilder, type SpendSlots } from "./spend-slots.js";
import { addSessionSpend } from "./spend-model.js";

/** Longest first request a row keeps (a preview, not the message). */
export const FIRST_REQUEST_CHARS = 2000;

export interface CatalogueRow {
  path: string;
  id: string;
  cwd: string;
  /** pi's session name (last session_info, trimmed), or null. */
  name: string | null;
  /**
   * Whose marks the file holds: "omp" for omp's title slot or an entry only omp
   * writes, else "pi". A list also counts a file under omp's folder as omp's (agentOfRow).
   */
  agent: AgentName;
  /** omp's title for its /resume list (title slot, header title, a compaction shortSummary in the first 4 KiB), or null. */
  ompTitle: string | null;
  /** Text of the first user message with text (pi's firstMessage), cut to FIRST_REQUEST_CHARS, or null. */
  firstUserMessage: string | null;
  /** The header's parentSession (the session this one was forked from), or null. */
  parentSession: string | null;
  /** The first pi 1.x entry of the file (its tokens are then counted by pi 1.5's rule), or null. */
  pi1xMarker: Pi1xMarker | null;
  entries: number;
  /** `message` entries, as pi's session list counts them. */
  messages: number;
  /** pi's getSessionModifiedDate (ISO): last user/assistant activity, else the header's time, else the file's mtime. */
  modified: string;
  /** Last user/assistant activity (ms), 0 when none. */
  lastActivity: number;
  /** The newest timestamp of any entry (ms; ours included), 0 when none: with mtimeMs, the session's last activity (lastActivityMs). */
  newestEntry: number;
  /** Context tokens of the current branch, by the row's token rule (`rowTokenRule`). */
  contextTokens: number;
  /** "usage": from the model's last answer; otherwise an estimate (pi's chars/4), with or without a compaction before it. */
  contextSource: ContextTokenSource;
  /** Messages the model would see. */
  contextMessages: number;
  model: SessionModelRef | null;
  /** Tokens and cost of the whole file: assistant and tool-result usage, usage entries, compaction and branch-summary usage. */
  totalTokens: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  /** The same spend by 15-minute slot, kind and model (spend-slots.ts): what usage by day, model and project sums. */
  spend: SpendSlots;
  /** The file holds a compaction entry. */
  hasCompactions: boolean;
  size: number;
  mtimeMs: number;
}

/** What the catalogue keeps to carry a row forward over appended lines. */
export interface RowResume {
  /** The read ended on a complete line at this offset (= the size read). */
  offset: number;
  leafId: string | null;
  branchHasReset: boolean;
  /** The header's timestamp (ms; NaN when it has none): pi's modified date falls back to it. */
  headerMs: number;
  /** The ids read so far (an appended line reusing one means a full read). */
  ids: IdFilter;
  /** pi 1.5: what an appended context edit of a recent entry needs (projected-resume.ts; absent: such an edit reads the file). */
  projected?: ProjectedResume;
  /**
   * pi 1.5: a context_edit in the file targets an id no entry has (yet): pi applies it to a later
   * entry that takes that id, so every append reads the file.
   */
  editsAhead?: true;
}

export interface ComputedRow {
  row: CatalogueRow;
  resume: RowResume | null;
  /**
   * The rule's count of the branch kept over appends (`rule.incremental`: omp's), as the row's read left it,
   * when there is a resume: kept in memory only (row-counts.ts), never in the catalogue's log.
   */
  count?: IncrementalUsage;
}

function ompMarkOfEntryOrUndefined(mini: LoadedSession, m: EntryMeta): boolean {
  if (m.type !== "model_change" && m.type !== "compaction" && m.type !== "custom" && m.type !== "message") return false;
  try {
    return ompMarkOfEntry(mini.entryAt(m)) !== undefined;
  } catch {
    return false;
  }
}

/** omp's /resume title of the file (read from its first 4 KiB), or null. */
export function ompTitleOf(path: string): string | null {
  return readOmpListing(path)?.title ?? null;
}

/** Whose session a row is in a list: omp's when it lies under one of omp's session roots, else as the file says. */
export function agentOfRow(row: Pick<CatalogueRow, "agent" | "path">, isUnderOmpRoot: (path: string) => boolean): AgentName {
  return row.agent === "omp" || isUnderOmpRoot(row.path) ? "omp" : "pi";
}

/** The title a list shows for the row, by its agent's rule (omp's /resume title; pi's session name). */
export function rowTitle(row: Pick<CatalogueRow, "name" | "ompTitle">, semantics: AgentSemantics): string | null {
  return semantics.listTitle({ sessionInfoName: row.name, ompListTitle: row.ompTitle });
}

/** The name the agent's own session picker shows for the row (its title, else the first request, else the agent's placeholder). */
export function rowDisplayName(row: Pick<CatalogueRow, "name" | "ompTitle" | "firstUserMessage" | "mtimeMs">, semantics: AgentSemantics): string {
  return semantics.displayName({ title: rowTitle(row, semantics), firstMessage: row.firstUserMessage, created: null, modified: new Date(row.mtimeMs) });
}

export function firstRequest(text: string | null): string | null {
  return text === null ? null : text.length > FIRST_REQUEST_CHARS ? text.slice(0, FIRST_REQUEST_CHARS) : text;
}

export function headerTime(header: { timestamp?: unknown } | null): number {
  return typeof header?.timestamp === "string" ? new Date(header.timestamp).getTime() : NaN;
}

export function modifiedOf(lastActivity: number, headerMs: number, mtimeMs: number): string {
  if (lastActivity > 0) return new Date(lastActivity).toISOString();
  return new Date(!Number.isNaN(headerMs) ? headerMs : mtimeMs).toISOString();
}

/** The rule a row is counted with: omp's for omp's sessions, else the pi version's. */
export function rowTokenRule(agent: AgentName, marker: Pi1xMarker | null, versionOf: RowVersion): ContextTokenRule {
  return semanticsOf(agent, versionOf(marker)).contextTokenRule;
}

/** The pi version a row is counted with, from the file's first pi 1.x marker (see `rowVersionPolicy`). */
export type RowVersion = (marker: Pi1xMarker | null) => PiVersion;

/**
 * choosePiVersion for rows: an explicit version (--pi-version, a setting other
 * than auto) for every row; else pi 1.5 for a session with a marker and the
 * caller's default (installed pi, else 0.73) for the others.
 */
export function rowVersionPolicy(options: { explicitVersion?: PiVersion; defaultVersion?: PiVersion }): RowVersion {
  const explicit = options.explicitVersion;
  const fallback = options.defaultVersion ?? "0.73";
  return explicit ? () => explicit : (marker) => (marker ? "1.5" : fallback);
}

/** The row of a session read in full; null when the file is not a session (no header). */
export function rowFromSession(session: LoadedSession, size: number, mtimeMs: number, versionOf: RowVersion, sumAhead = false): ComputedRow | null {
  const header = session.header;
  if (!header || session.headerMissing || session.path === undefined) return null;
  const marker = sessionPi1xMarker(session) ?? null;
  const agent: AgentName = sessionOmpMarker(session) ? "omp" : "pi";
  const rule = rowTokenRule(agent, marker, versionOf);
  const facts = new LiveSessionFacts(session, rule);
  const f = facts.current;
  const spend = session.index.totalSpend;
  const row: CatalogueRow = {
    path: session.path,
    id: header.id,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    name: f.name,
    agent,
    ompTitle: ompTitleOf(session.path),
    firstUserMessage: firstRequest(firstUserMessageText(session)),
    parentSession: typeof header.parentSession === "string" ? header.parentSession : null,
    pi1xMarker: marker,
    entries: f.entryCount,
    messages: f.messageCount,
    modified: modifiedOf(f.lastActivityTime, headerTime(header), mtimeMs),
    lastActivity: f.lastActivityTime,
    newestEntry: session.index.newestEntryTime,
    contextTokens: f.usage.tokens,
    contextSource: f.usage.source,
    contextMessages: f.usage.messageCount,
    model: f.model,
    totalTokens: spend.input + spend.output + spend.cacheRead + spend.cacheWrite,
    input: spend.input,
    output: spend.output,
    cacheRead: spend.cacheRead,
    cacheWrite: spend.cacheWrite,
    cost: spend.cost,
    spend: spendSlotsOf(session, forkTime(header)),
    hasCompactions: hasCompaction(session),
    size,
    mtimeMs,
  };
  const resumable = session.version === 3 && !session.needsMigration && session.fingerprint.size === size && session.index.duplicateCount === 0;
  const complete = resumable && endsOnCompleteLine(session.path, size);
  let resume: RowResume | null = null;
  if (complete) {
    const ids = IdFilter.forSession(session.index.size);
    for (let i = 0; i < session.index.size; i++) ids.add(session.index.idAt(i));
    resume = { offset: size, leafId: f.leafId, branchHasReset: facts.branchHasReset, headerMs: headerTime(header), ids };
    if (keepsProjection(rule) && hasEditAhead(session)) resume.editsAhead = true;
    const projected = keepsProjection(rule) ? projectedResumeOfFacts(session, facts, sumAhead) : undefined;
    if (projected) resume.projected = projected;
  }
  const count = resume ? facts.incrementalCount : undefined;
  return count ? { row, resume, count } : { row, resume };
}

/** As the streamed row keeps it: from the running count, or from the entries the usage was recounted from. */
function projectedResumeOfFacts(session: LoadedSession, facts: LiveSessionFacts, sumAhead: boolean): ProjectedResume | undefined {
  const branch = facts.branch;
  // As the streamed row asked for a sum ahead: pi's running sum built now when the usage did not need it.
  if (sumAhead && !facts.runningUsage && facts.rule.usage(facts) !== undefined) {
    try {
      facts.prepareAhead(() => false);
    } catch {
      return undefined; // a body the row did not need cannot be parsed (a skimmed read): no sum
    }
  }
  if (facts.runningUsage) return projectedResumeOf(facts.runningUsage, branch.length, (p) => ({ id: branch[p]!.id, kind: branch[p]! }));
  if (facts.rule.usage(facts) !== undefined) return undefined;
  const start = facts.rule.recountStart?.(facts) ?? 0;
  return projectedResumeOfPath(branch.slice(start).map((m) => session.entryAt(m)));
}

function hasEditAhead(session: LoadedSession): boolean {
  const index = session.index;
  const targets: string[] = [];
  for (let i = 0; i < index.size; i++) {
    if (index.typeAt(i) !== "context_edit") continue;
    const target = editTarget(session.entryAt(index.at(i)));
    if (target !== undefined) targets.push(target);
  }
  if (targets.length === 0) return false;
  const known = new Set<string>();
  for (let i = 0; i < index.size; i++) known.add(index.idAt(i));
  return targets.some((t) => !known.has(t));
}

function spendSlotsOf(session: LoadedSession, forkedAt: number, from?: SpendSlots): SpendSlots {
  const builder = new SpendSlotsBuilder(from);
  addSessionSpend(builder, session, forkedAt);
  return builder.build();
}

function hasCompaction(session: LoadedSession): boolean {
  for (let i = 0; i < session.index.size; i++) if (session.index.typeAt(i) === "compaction") return true;
  return false;
}

/** The file's byte before `size` is a newline (read directly: the session's diagnostics would analyse the whole tree). */
function endsOnCompleteLine(path: string, size: number): boolean {
  if (size === 0) return false;
  try {
    const fd = openSync(path, "r");
    try {
      return readRange(fd, size - 1, 1)[0] === 0x0a;
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function entryOrUndefined(session: LoadedSession, meta: EntryMeta): SessionEntry | undefined {
  try {
    return session.entryAt(meta);
  } catch {
    return undefined;
  }
}

const MINI_HEADER = `${JSON.stringify({ type: "session", version: 3, id: "appended", timestamp: "1970-01-01T00:00:00.000Z", cwd: "" })}\n`;

/**
 * The appended lines (complete ones) as a session of their own, when they hang below `leafId` in one
 * chain and reuse no id (`known`: an id the file may hold already); null otherwise.
 */
export function appendedChain(appended: Uint8Array, leafId: string | null, known: (id: string) => boolean): LoadedSession | null {
  const mini = sessionFromBytes(Buffer.concat([Buffer.from(MINI_HEADER), appended]));
  if (mini.index.duplicateCount > 0) return null;
  let parent = leafId;
  for (const m of mini.index.entries) {
    if (m.parentId !== parent || known(m.id)) return null;
    parent = m.id;
  }
  return mini;
}

/** The rule's tokens of one appended entry (its body parsed only when the rule counts it). */
export function appendedTokens(rule: ContextTokenRule, mini: LoadedSession, m: EntryMeta): EntryTokens {
  const candidate = rule.messagesFromMeta(m) !== 0 || rule.isUsageCandidate(m) || rule.isResetCandidate(m);
  return candidate ? rule.entryTokens(mini.entryAt(m)) : { messages: 0, estimate: 0 };
}

/**
 * The row after `appended` (complete lines) was added to the file the previous
 * row was read from, from those bytes alone; null when the new lines do not
 * hang below the old leaf in one chain, reset the context, the rule cannot
 * extend, or they hold the first pi 1.x marker of a row counted by another
 * rule (the caller reads the file in full).
 */
export function extendRow(
  previous: CatalogueRow,
  resume: RowResume,
  appended: Uint8Array,
  size: number,
  mtimeMs: number,
  versionOf: RowVersion,
  count?: IncrementalUsage,
): ComputedRow | null {
  const rule = rowTokenRule(previous.agent, previous.pi1xMarker, versionOf);
  if (resume.editsAhead && keepsProjection(rule)) return null;
  // A rule without `extend` (omp's) carries the row only with the count its read kept (`count`).
  if ((!rule.extend && !count) || appended.length === 0 || appended[appended.length - 1] !== 0x0a) return null;
  const mini = appendedChain(appended, resume.leafId, (id) => resume.ids.mayHave(id));
  if (!mini) return null;
  const metas = mini.index.entries;
  // The file's first marker: the row needs its line, and maybe another rule.
  if (!previous.pi1xMarker && findPi1xMarker(metas, (m) => entryOrUndefined(mini, m))) return null;
  // The first omp entry of a pi row: counted by omp's rule from now on (a full read).
  if (previous.agent === "pi" && metas.some((m) => isOmpOnlyEntryType(m.type) || ompMarkOfEntryOrUndefined(mini, m))) return null;
  const added: EntryTokens[] = [];
  const tail = !count && resume.projected && keepsProjection(rule) ? new ProjectedTail(resume.projected) : undefined;
  if (!count) {
    for (const m of metas) {
      const tokens = appendedTokens(rule, mini, m);
      tail?.add(m, m.id, tokens, () => mini.entryAt(m), added.length);
      added.push(tokens);
    }
  }
  const previousUsage = { tokens: previous.contextTokens, source: previous.contextSource, messageCount: previous.contextMessages };
  // omp's count kept over the appended entries (last: undefined spends it, and the caller reads the file).
  // A context edit of a recent entry: pi 1.5's projected estimate, carried in the resume.
  const usage = count
    ? count.append(metas.map((m) => mini.entryAt(m)))
    : tail?.sawEdit
      ? tail.lost
        ? undefined
        : tail.usageAfterEdits(added)
      : rule.extend!({ usage: previousUsage, branchHasReset: resume.branchHasReset }, added);
  if (!usage) return null;
  const modelEntries = metas.filter((m) => m.type === "model_change" || (m.type === "message" && m.role === "assistant"));
  const model = sessionModel(modelEntries.map((m) => mini.entryAt(m)));
  const index = mini.index;
  const spend = index.totalSpend;
  const sawName = metas.some((m) => m.type === "session_info");
  const lastActivity = Math.max(previous.lastActivity, index.lastActivityTime);
  const row: CatalogueRow = {
    ...previous,
    name: sawName ? (index.sessionName ?? null) : previous.name,
    agent: previous.agent,
    // omp reads its title from the first 4 KiB: an append reaches into them only while the file is shorter,
    // but omp's rename rewrites the title slot in place and appends a title_change (one small read per append).
    ompTitle: previous.agent === "omp" || previous.size < OMP_LIST_PREFIX_BYTES ? ompTitleOf(previous.path) : previous.ompTitle,
    firstUserMessage: previous.firstUserMessage ?? firstRequest(firstUserMessageText(mini)),
    entries: previous.entries + index.size,
    messages: previous.messages + index.messageCount,
    modified: modifiedOf(lastActivity, resume.headerMs, mtimeMs),
    lastActivity,
    newestEntry: Math.max(previous.newestEntry, index.newestEntryTime),
    contextTokens: usage.tokens,
    contextSource: usage.source,
    contextMessages: usage.messageCount,
    model: model.model ?? previous.model,
    totalTokens: previous.totalTokens + spend.input + spend.output + spend.cacheRead + spend.cacheWrite,
    input: previous.input + spend.input,
    output: previous.output + spend.output,
    cacheRead: previous.cacheRead + spend.cacheRead,
    cacheWrite: previous.cacheWrite + spend.cacheWrite,
    cost: previous.cost + spend.cost,
    spend: spendSlotsOf(mini, previous.parentSession !== null ? resume.headerMs : Number.NaN, previous.spend),
    hasCompactions: previous.hasCompactions || metas.some((m) => m.type === "compaction"),
    size,
    mtimeMs,
  };
  const leafId = metas.length > 0 ? metas[metas.length - 1]!.id : resume.leafId;
  // Extended in place, not copied (a 100 MB session's is 512 KB, per pi write): the previous record is
  // replaced by this one, and a filter that holds more ids than its row only costs a full read, never a wrong row.
  const ids = resume.ids;
  for (const m of metas) ids.add(m.id);
  const next: RowResume = { ...resume, offset: size, leafId, ids, branchHasReset: resume.branchHasReset || tail?.sawEdit === true };
  const projected = tail?.current;
  if (projected) next.projected = projected;
  else delete next.projected;
  if (!ids.hasRoom) return { row, resume: null };
  return count ? { row, resume: next, count } : { row, resume: next };
}
