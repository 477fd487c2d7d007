// The Usage webview's report: the core's usage report over the listed
// sessions' catalogue rows, cut to what the page shows (the most costly stack
// keys, the others folded into "other"; the top rows of each table).
import type { CatalogueRow } from "../../core/catalogue/catalogue-row";
import { periodDays, usageReport, type UsageTotals } from "../../core/usage";
import { USAGE_LIMITS, type UsageNumbers, type UsageView, type UsageViewOptions } from "../../webview/usage-protocol";

export const OTHER_KEY = "other";

const numbers = (t: UsageTotals): UsageNumbers => ({ cost: t.cost, tokens: t.tokens, input: t.input, output: t.output, cacheRead: t.cacheRead, cacheWrite: t.cacheWrite });
const cut = (text: string): string => (text.length > USAGE_LIMITS.textChars ? `${text.slice(0, USAGE_LIMITS.textChars - 1)}…` : text);

export function usageView(rows: readonly CatalogueRow[], options: UsageViewOptions, now = Date.now()): UsageView {
  const report = usageReport(rows, { ...periodDays(options.period, now), stack: options.stack, rollUp: options.rollUp });
  const fold = report.stackKeys.length > USAGE_LIMITS.stackKeys;
  const shown = fold ? report.stackKeys.slice(0, USAGE_LIMITS.stackKeys - 1) : report.stackKeys;
  const stackKeys = fold ? [...shown, OTHER_KEY] : shown;
  const kind = (k: string) => report.byKind.find((b) => b.kind === k)!.totals;
  return {
    since: report.since ?? report.days[0]?.day ?? null,
    until: report.until ?? report.days[report.days.length - 1]?.day ?? null,
    sessions: report.sessions,
    totals: numbers(report.totals),
    compaction: numbers(kind("compaction")),
    branchSummary: numbers(kind("branch_summary")),
    inheritedLeftOut: report.inheritedLeftOut.cost,
    days: report.days.map((d) => {
      const costs = shown.map((k) => d.stack[k]?.cost ?? 0);
      const tokenCounts = shown.map((k) => d.stack[k]?.tokens ?? 0);
      if (fold) {
        costs.push(Math.max(0, d.totals.cost - costs.reduce((s, c) => s + c, 0)));
        tokenCounts.push(Math.max(0, d.totals.tokens - tokenCounts.reduce((s, c) => s + c, 0)));
      }
      return { day: d.day, cost: d.totals.cost, tokens: d.totals.tokens, costs, tokenCounts };
    }),
    stackKeys: stackKeys.map(cut),
    models: report.models.slice(0, USAGE_LIMITS.rows).map((m) => ({ name: cut(m.model), cost: m.totals.cost, tokens: m.totals.tokens })),
    projects: report.projects.slice(0, USAGE_LIMITS.rows).map((p) => ({ name: cut(p.cwd), cost: p.totals.cost, tokens: p.totals.tokens, sessions: p.sessions })),
    topSessions: report.bySession
      .filter((s) => s.path.length <= USAGE_LIMITS.pathChars)
      .slice(0, USAGE_LIMITS.rows)
      .map((s) => ({ path: s.path, title: cut(s.title), cwd: cut(s.cwd), cost: s.totals.cost, tokens: s.totals.tokens, rolledUp: s.rolledUp })),
  };
}
