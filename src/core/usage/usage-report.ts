// What sessions cost and consumed over a period, from catalogue rows alone (their
// spend cells, spend-slots.ts): totals, per local day stacked by model, project
// or kind, per model, per project and per session, and the spend of compactions
// and branch summaries apart. The CLI's `usage` and the Usage view both show this.

import { rowTitle, type CatalogueRow } from "../catalogue/catalogue-row.js";
import { semanticsOf } from "../agent/index.js";
import { CELL_WIDTH, INHERITED, KIND_ASSISTANT, KIND_USAGE, SPEND_KINDS, UNDATED_SLOT, type SpendKind } from "../catalogue/spend-slots.js";
import { daysBetween, localDay, SlotDays } from "./local-day.js";
import { rollUpTargets } from "./roll-up.js";

export interface UsageTotals {
  cost: number;
  /** input + output + cacheRead + cacheWrite (pi's total). */
  tokens: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type UsageStack = "model" | "project" | "kind";

export interface UsageOptions {
  /** First local day counted ("YYYY-MM-DD"), inclusive; none: from the first spend. */
  since?: string;
  /** Last local day counted, inclusive; none: to the last spend. */
  until?: string;
  /** What each day's bar is split by (default: model). */
  stack?: UsageStack;
  /** Forks and subagent sessions (a header's parentSession) counted in the session they came from. */
  rollUp?: boolean;
}

export interface UsageDay {
  day: string;
  totals: UsageTotals;
  /** Cost and tokens per stack key (UsageReport.stackKeys). */
  stack: Record<string, { cost: number; tokens: number }>;
}

export interface UsageSession {
  path: string;
  id: string;
  title: string;
  cwd: string;
  parentSession: string | null;
  modified: string;
  totals: UsageTotals;
  /** Sessions rolled into this one (rollUp). */
  rolledUp: number;
}

export interface UsageReport {
  since: string | null;
  until: string | null;
  /** Sessions with spend in the period. */
  sessions: number;
  totals: UsageTotals;
  /** By what spent: answers, usage entries (cache warming), tool results, compactions, branch summaries. */
  byKind: { kind: SpendKind; totals: UsageTotals }[];
  /** Every day from the first to the last of the period (days without spend too). */
  days: UsageDay[];
  stack: UsageStack;
  /** The stack's keys, most costly first. */
  stackKeys: string[];
  models: { model: string; totals: UsageTotals }[];
  projects: { cwd: string; sessions: number; totals: UsageTotals }[];
  /** Most costly first. */
  bySession: UsageSession[];
  /** Spend a fork copied from a session also counted here (left out of every number above). */
  inheritedLeftOut: UsageTotals;
}

/** The stack key of spend that names no model: what spent it. */
export const KIND_LABELS: Record<SpendKind, string> = {
  assistant: "answers",
  usage: "cache warming",
  toolResult: "tool results",
  compaction: "compaction",
  branch_summary: "branch summary",
};

export function zeroTotals(): UsageTotals {
  return { cost: 0, tokens: 0, input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
}

function addCell(t: UsageTotals, c: readonly number[], at: number): void {
  const input = c[at + 3]!;
  const output = c[at + 4]!;
  const cacheRead = c[at + 5]!;
  const cacheWrite = c[at + 6]!;
  t.input += input;
  t.output += output;
  t.cacheRead += cacheRead;
  t.cacheWrite += cacheWrite;
  t.tokens += input + output + cacheRead + cacheWrite;
  t.cost += c[at + 7]!;
}

function totalsIn<K>(map: Map<K, UsageTotals>, key: K): UsageTotals {
  let t = map.get(key);
  if (!t) map.set(key, (t = zeroTotals()));
  return t;
}

/** A row's title as lists show it: its name by its agent's rule (omp: its /resume title; pi: session_info), else its first request (one line), else its id. */
export function sessionTitle(row: CatalogueRow): string {
  // The title rule is the same for both pi versions; only the agent matters here.
  const name = rowTitle(row, semanticsOf(row.agent, "0.73"));
  if (name) return name;
  if (row.firstUserMessage) return row.firstUserMessage.replace(/\s+/g, " ").trim().slice(0, 120) || row.id;
  return row.id;
}

const byCost = <T extends { totals: UsageTotals }>(a: T, b: T): number => b.totals.cost - a.totals.cost || b.totals.tokens - a.totals.tokens;

/** The usage of `rows` (a workspace's sessions, or every project's) over the options' period. */
export function usageReport(rows: readonly CatalogueRow[], options: UsageOptions = {}): UsageReport {
  const stack = options.stack ?? "model";
  const since = options.since ?? null;
  const until = options.until ?? null;
  const days = new SlotDays();
  const known = new Set<string>();
  for (const r of rows) {
    known.add(r.path);
    known.add(r.id);
  }
  const target = options.rollUp ? rollUpTargets(rows) : undefined;
  const totals = zeroTotals();
  const inherited = zeroTotals();
  const kinds = new Map<number, UsageTotals>();
  const models = new Map<string, UsageTotals>();
  const projects = new Map<string, { sessions: number; totals: UsageTotals }>();
  const dayTotals = new Map<string, UsageDay>();
  const stackTotals = new Map<string, UsageTotals>();
  const sessions = new Map<string, UsageSession>();
  const rowByPath = new Map(rows.map((r) => [r.path, r]));
  let counted = 0;
  let firstDay: string | null = null;
  let lastDay: string | null = null;

  for (const row of rows) {
    const { models: names, cells } = row.spend;
    if (cells.length === 0) continue;
    // Copied spend is billed in the session it was copied from, when that one is counted too.
    const parentCounted = row.parentSession !== null && known.has(row.parentSession);
    const undatedDay = localDay(row.lastActivity > 0 ? row.lastActivity : Date.parse(row.modified));
    let own: UsageTotals | undefined;
    for (let at = 0; at < cells.length; at += CELL_WIDTH) {
      const slot = cells[at]!;
      const day = slot === UNDATED_SLOT ? undatedDay : days.of(slot);
      if ((since !== null && day < since) || (until !== null && day > until)) continue;
      const flagged = cells[at + 1]!;
      if ((flagged & INHERITED) !== 0 && parentCounted) {
        addCell(inherited, cells, at);
        continue;
      }
      const kind = flagged & ~INHERITED;
      const m = cells[at + 2]!;
      const model = m >= 0 && (kind === KIND_ASSISTANT || kind === KIND_USAGE) ? names[m]! : null;
      own ??= zeroTotals();
      addCell(own, cells, at);
      addCell(totals, cells, at);
      addCell(totalsIn(kinds, kind), cells, at);
      if (model !== null) addCell(totalsIn(models, model), cells, at);
      const kindLabel = KIND_LABELS[SPEND_KINDS[kind]!];
      const key = stack === "project" ? row.cwd : stack === "kind" || model === null ? kindLabel : model;
      addCell(totalsIn(stackTotals, key), cells, at);
      let d = dayTotals.get(day);
      if (!d) dayTotals.set(day, (d = { day, totals: zeroTotals(), stack: {} }));
      addCell(d.totals, cells, at);
      const s = (d.stack[key] ??= { cost: 0, tokens: 0 });
      s.cost += cells[at + 7]!;
      s.tokens += cells[at + 3]! + cells[at + 4]! + cells[at + 5]! + cells[at + 6]!;
      if (firstDay === null || day < firstDay) firstDay = day;
      if (lastDay === null || day > lastDay) lastDay = day;
    }
    if (!own) continue;
    counted++;
    let project = projects.get(row.cwd);
    if (!project) projects.set(row.cwd, (project = { sessions: 0, totals: zeroTotals() }));
    project.sessions++;
    addTotals(project.totals, own);
    const into = rowByPath.get(target?.get(row.path) ?? row.path) ?? row;
    let session = sessions.get(into.path);
    if (!session) {
      session = { path: into.path, id: into.id, title: sessionTitle(into), cwd: into.cwd, parentSession: into.parentSession, modified: into.modified, totals: zeroTotals(), rolledUp: 0 };
      sessions.set(into.path, session);
    }
    if (into !== row) session.rolledUp++;
    addTotals(session.totals, own);
  }

  const stackKeys = [...stackTotals].sort((a, b) => b[1].cost - a[1].cost || b[1].tokens - a[1].tokens || (a[0] < b[0] ? -1 : 1)).map(([k]) => k);
  const from = since ?? firstDay;
  const to = until ?? lastDay;
  const dayList = from !== null && to !== null ? daysBetween(from, to).map((day) => dayTotals.get(day) ?? { day, totals: zeroTotals(), stack: {} }) : [];
  return {
    since,
    until,
    sessions: counted,
    totals,
    byKind: SPEND_KINDS.map((kind, code) => ({ kind, totals: kinds.get(code) ?? zeroTotals() })),
    days: dayList,
    stack,
    stackKeys,
    models: [...models].map(([model, t]) => ({ model, totals: t })).sort(byCost),
    projects: [...projects].map(([cwd, p]) => ({ cwd, sessions: p.sessions, totals: p.totals })).sort(byCost),
    bySession: [...sessions.values()].sort(byCost),
    inheritedLeftOut: inherited,
  };
}

export function addTotals(into: UsageTotals, t: UsageTotals): void {
  into.cost += t.cost;
  into.tokens += t.tokens;
  into.input += t.input;
  into.output += t.output;
  into.cacheRead += t.cacheRead;
  into.cacheWrite += t.cacheWrite;
}
