import type { CatalogueRow } from "../../core/catalogue/catalogue-row";
import { startOfLocalDay, usageReport, type UsageReport, type UsageTotals } from "../../core/usage";
import { boolFlag, stringFlag } from "../args";
import type { Command, CommandContext } from "../command";
import { UsageError } from "../errors";
import { printJson, printLines } from "../output";
import { lookedIn, sessionRows } from "../session-rows";

const GROUPS = ["day", "model", "project", "session"] as const;
type Group = (typeof GROUPS)[number];

function dayFlag(ctx: CommandContext, name: string): string | undefined {
  const v = stringFlag(ctx.args, name);
  if (v === undefined) return undefined;
  if (Number.isNaN(startOfLocalDay(v))) throw new UsageError(`--${name} needs a date as YYYY-MM-DD (a local day), got '${v}'`);
  return v;
}

type Line = Record<string, string | number | null>;

/** Each group's own columns (then TOKEN_COLUMNS), as the JSON rows name them. */
const COLUMNS: Record<Group, string[]> = {
  day: ["day"],
  model: ["model"],
  project: ["cwd", "sessions"],
  session: ["path", "id", "title", "cwd", "parentSession", "modified", "rolledUp"],
};
const TOKEN_COLUMNS = ["cost", "tokens", "input", "output", "cacheRead", "cacheWrite"];

function tokenFields(t: UsageTotals): Line {
  return { cost: t.cost, tokens: t.tokens, input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite };
}

/** One line per group member, in the report's order (days by date, the others most costly first). */
function linesOf(report: UsageReport, by: Group): Line[] {
  switch (by) {
    case "day":
      return report.days.map((d) => ({ day: d.day, ...tokenFields(d.totals) }));
    case "model":
      return report.models.map((m) => ({ model: m.model, ...tokenFields(m.totals) }));
    case "project":
      return report.projects.map((p) => ({ cwd: p.cwd, sessions: p.sessions, ...tokenFields(p.totals) }));
    case "session":
      return report.bySession.map((s) => ({ path: s.path, id: s.id, title: s.title, cwd: s.cwd, parentSession: s.parentSession, modified: s.modified, rolledUp: s.rolledUp, ...tokenFields(s.totals) }));
  }
}

function csvField(v: string | number | null): string {
  const text = v === null ? "" : String(v);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  if (n < 1_000_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  return `${(n / 1_000_000_000).toFixed(2)}G`;
}

const money = (n: number) => `$${n.toFixed(2)}`;

function textLines(report: UsageReport, lines: Line[], by: Group): string[] {
  const label = (l: Line): string => String(by === "day" ? l.day : by === "model" ? l.model : by === "project" ? l.cwd : `${l.title}  (${l.path})`);
  const rows = lines.map((l) => `${money(Number(l.cost)).padStart(10)}  ${compact(Number(l.tokens)).padStart(7)} tok  ${compact(Number(l.input)).padStart(7)} in  ${compact(Number(l.output)).padStart(7)} out  ${compact(Number(l.cacheRead)).padStart(7)} cache r  ${compact(Number(l.cacheWrite)).padStart(7)} cache w  ${label(l)}`);
  const t = report.totals;
  const kind = (k: string) => report.byKind.find((b) => b.kind === k)!.totals;
  const period = `${report.since ?? "the first session"} to ${report.until ?? "the last"}`;
  const out = [
    ...rows,
    "",
    `total ${money(t.cost)}, ${compact(t.tokens)} tokens (${compact(t.input)} in, ${compact(t.output)} out, ${compact(t.cacheRead)} cache read, ${compact(t.cacheWrite)} cache write) over ${report.sessions} session${report.sessions === 1 ? "" : "s"}, ${period}`,
    `of which compaction ${money(kind("compaction").cost)}, branch summaries ${money(kind("branch_summary").cost)}, cache warming ${money(kind("usage").cost)}, tool results ${money(kind("toolResult").cost)}`,
  ];
  if (report.inheritedLeftOut.tokens > 0) out.push(`left out: ${money(report.inheritedLeftOut.cost)} that forks copied from sessions counted here`);
  return out;
}

export const usageCommand: Command = {
  name: "usage",
  usage: "usage [DIR…] [--all] [--since DATE] [--until DATE] [--by day|model|project|session] [--roll-up] [--json|--csv] [--agent-dir DIR] [--cwd DIR] [--pi-version 0.73|1.5]",
  summary:
    "What sessions cost and consumed (cost, input, output, cache read/write tokens) per local day, model, project or session, from what pi recorded; compaction and branch-summary spend apart; --roll-up counts forks and subagent sessions in their parent.",
  flags: { all: { value: false }, since: { value: true }, until: { value: true }, by: { value: true }, csv: { value: false }, "roll-up": { value: false } },
  async run(ctx) {
    const by = stringFlag(ctx.args, "by") ?? "day";
    if (!(GROUPS as readonly string[]).includes(by)) throw new UsageError(`--by needs one of ${GROUPS.join(", ")}, got '${by}'`);
    const csv = boolFlag(ctx.args, "csv");
    if (csv && ctx.json) throw new UsageError("--json and --csv cannot be combined");
    const since = dayFlag(ctx, "since");
    const until = dayFlag(ctx, "until");
    if (since !== undefined && until !== undefined && since > until) throw new UsageError(`--since ${since} is after --until ${until}`);
    const found = await sessionRows(ctx);
    const report = usageReport(found.rows as CatalogueRow[], { ...(since ? { since } : {}), ...(until ? { until } : {}), rollUp: boolFlag(ctx.args, "roll-up") });
    const lines = linesOf(report, by as Group);
    if (ctx.json) {
      printJson(ctx, {
        since: report.since,
        until: report.until,
        timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
        by,
        sessions: report.sessions,
        totals: tokenFields(report.totals),
        byKind: Object.fromEntries(report.byKind.map((k) => [k.kind, tokenFields(k.totals)])),
        inheritedLeftOut: tokenFields(report.inheritedLeftOut),
        rows: lines,
      });
      return 0;
    }
    if (csv) {
      const columns = [...COLUMNS[by as Group], ...TOKEN_COLUMNS];
      printLines(ctx, [columns.join(","), ...lines.map((l) => columns.map((c) => csvField(l[c] ?? null)).join(","))]);
      return 0;
    }
    if (found.rows.length === 0) {
      printLines(ctx, [lookedIn(ctx, found)]);
      return 0;
    }
    printLines(ctx, textLines(report, lines, by as Group));
    return 0;
  },
};
