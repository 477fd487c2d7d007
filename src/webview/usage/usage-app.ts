// The Usage page: controls (period, scope, stack, metric, roll-up), the
// period's totals, a stacked chart per day with its table, and the tables of
// top sessions (each opens its session), projects and models. Every message
// from the host is validated; the page posts only the options it shows and
// the path of a session the host sent.
import { button, h } from "../dom";
import { isUsageHostMessage, USAGE_PERIODS, type UsageNumbers, type UsageView, type UsageViewOptions, type UsageWebviewMessage } from "../usage-protocol";
import { usageFormat, type UsageFormat } from "./format";
import { stackedChart } from "./stacked-chart";

export interface UsageApi {
  postMessage(message: UsageWebviewMessage): void;
  getState(): unknown;
  setState(state: unknown): void;
}

type Metric = "cost" | "tokens";

const PERIOD_LABELS: Record<UsageViewOptions["period"], string> = { "7d": "7 days", "30d": "30 days", "90d": "90 days", all: "All time" };
const STACK_LABELS: Record<UsageViewOptions["stack"], string> = { model: "Model", project: "Project", kind: "Kind" };
const SCOPE_LABELS: Record<UsageViewOptions["scope"], string> = { workspace: "This workspace", all: "All projects" };

export class UsageApp {
  private options: UsageViewOptions | undefined;
  private view: UsageView | undefined;
  private metric: Metric = "cost";
  private loading = false;
  private readonly fmt: UsageFormat = usageFormat();

  constructor(
    private readonly root: HTMLElement,
    private readonly api: UsageApi,
  ) {
    const saved = api.getState();
    if (typeof saved === "object" && saved !== null && (saved as { metric?: unknown }).metric === "tokens") this.metric = "tokens";
  }

  start(): void {
    this.render();
    this.api.postMessage({ type: "ready" });
  }

  handleMessage(message: unknown): void {
    if (!isUsageHostMessage(message)) return;
    this.options = message.options;
    if (message.type === "loading") {
      this.loading = true;
      this.render();
      return;
    }
    this.loading = false;
    this.view = message.view;
    this.render();
    this.api.postMessage({ type: "shown", days: message.view.days.length });
  }

  private setOptions(change: Partial<UsageViewOptions>): void {
    if (!this.options) return;
    this.options = { ...this.options, ...change };
    this.api.postMessage({ type: "setOptions", options: this.options });
  }

  private setMetric(metric: Metric): void {
    this.metric = metric;
    this.api.setState({ metric });
    this.render();
  }

  private render(): void {
    const focused = document.activeElement?.id;
    this.root.replaceChildren(h("h1", { text: "Usage" }), this.controls(), ...this.body());
    if (focused) document.getElementById(focused)?.focus();
  }

  private select<T extends string>(id: string, label: string, values: readonly T[], labels: Record<T, string>, current: T | undefined, change: (v: T) => void): HTMLElement {
    const select = h("select", { attrs: { id } });
    for (const v of values) {
      const option = h("option", { text: labels[v], attrs: { value: v } });
      if (v === current) option.selected = true;
      select.append(option);
    }
    select.disabled = current === undefined;
    select.addEventListener("change", () => change(select.value as T));
    return h("label", { className: "control" }, h("span", { text: label }), select);
  }

  private controls(): HTMLElement {
    const o = this.options;
    const rollUp = h("input", { attrs: { type: "checkbox", id: "usage-rollup" } });
    rollUp.checked = o?.rollUp ?? false;
    rollUp.disabled = !o;
    rollUp.addEventListener("change", () => this.setOptions({ rollUp: rollUp.checked }));
    return h(
      "form",
      { className: "controls", attrs: { "aria-label": "Usage options" } },
      this.select("usage-period", "Period", USAGE_PERIODS, PERIOD_LABELS, o?.period, (period) => this.setOptions({ period })),
      this.select("usage-scope", "Sessions", ["workspace", "all"] as const, SCOPE_LABELS, o?.scope, (scope) => this.setOptions({ scope })),
      this.select("usage-stack", "Split by", ["model", "project", "kind"] as const, STACK_LABELS, o?.stack, (stack) => this.setOptions({ stack })),
      this.select("usage-metric", "Show", ["cost", "tokens"] as const, { cost: "Cost", tokens: "Tokens" }, this.metric, (m) => this.setMetric(m)),
      h("label", { className: "control check" }, rollUp, h("span", { text: "Count forks and subagents in their parent session" })),
    );
  }

  private body(): HTMLElement[] {
    const view = this.view;
    const status = h("p", { className: "status", attrs: { role: "status", "aria-live": "polite" } });
    if (!view) {
      status.textContent = "Reading sessions…";
      return [status];
    }
    if (this.loading) status.textContent = "Reading sessions…";
    const f = this.fmt;
    const range = view.since && view.until ? `${f.longDay(view.since)} – ${f.longDay(view.until)}` : "No spend recorded";
    status.textContent ||= `${range}: ${f.money(view.totals.cost)} over ${f.count(view.sessions)} session${view.sessions === 1 ? "" : "s"}`;
    return [status, this.totals(view), this.daily(view), this.sessions(view), this.projects(view), this.models(view)];
  }

  private card(label: string, value: string, detail?: string): HTMLElement {
    return h("div", { className: "card" }, h("div", { className: "card-label", text: label }), h("div", { className: "card-value", text: value }), ...(detail ? [h("div", { className: "card-detail", text: detail })] : []));
  }

  private tokensDetail(n: UsageNumbers): string {
    const f = this.fmt;
    return `${f.count(n.input)} in · ${f.count(n.output)} out · ${f.count(n.cacheRead)} cache read · ${f.count(n.cacheWrite)} cache write`;
  }

  private totals(view: UsageView): HTMLElement {
    const f = this.fmt;
    const cards = [
      this.card("Cost", f.money(view.totals.cost)),
      this.card("Tokens", f.count(view.totals.tokens), this.tokensDetail(view.totals)),
      this.card("Sessions", f.count(view.sessions)),
      this.card("Compaction", f.money(view.compaction.cost), `${f.count(view.compaction.tokens)} tokens`),
      this.card("Branch summaries", f.money(view.branchSummary.cost), `${f.count(view.branchSummary.tokens)} tokens`),
    ];
    const section = h("section", { className: "totals", attrs: { "aria-label": "Totals" } }, ...cards);
    if (view.inheritedLeftOut > 0) section.append(h("p", { className: "note", text: `${f.money(view.inheritedLeftOut)} that forks copied from sessions counted here is left out.` }));
    return section;
  }

  private table(caption: string, head: string[], rows: (string | Node)[][], numeric: number[]): HTMLTableElement {
    const table = h("table", {}, h("caption", { text: caption }));
    table.append(h("thead", {}, h("tr", {}, ...head.map((c, i) => h("th", { text: c, attrs: { scope: "col", ...(numeric.includes(i) ? { class: "num" } : {}) } })))));
    const body = h("tbody");
    for (const row of rows) {
      body.append(
        h(
          "tr",
          {},
          ...row.map((cell, i) => {
            const td = h(i === 0 ? "th" : "td", i === 0 ? { attrs: { scope: "row" } } : {});
            if (numeric.includes(i)) td.className = "num";
            td.append(typeof cell === "string" ? document.createTextNode(cell) : cell);
            return td;
          }),
        ),
      );
    }
    table.append(body);
    return table;
  }

  private daily(view: UsageView): HTMLElement {
    const f = this.fmt;
    const cost = this.metric === "cost";
    const values = view.days.map((d) => (cost ? d.costs : d.tokenCounts));
    const stackName = STACK_LABELS[this.options?.stack ?? "model"].toLowerCase();
    const caption = `${cost ? "Cost" : "Tokens"} per day, split by ${stackName}`;
    const total = cost ? view.totals.cost : view.totals.tokens;
    const chart = stackedChart(
      { days: view.days.map((d) => d.day), keys: view.stackKeys, values, axis: cost ? f.moneyAxis : f.countAxis, value: cost ? f.money : f.count, dayLabel: f.day, longDay: f.longDay },
      `${caption}: ${cost ? f.money(total) : f.count(total)} in all`,
    );
    const legend = h("ul", { className: "legend", attrs: { "aria-label": "Legend" } }, ...view.stackKeys.map((k, i) => h("li", {}, h("span", { className: `swatch series-${i}`, attrs: { "aria-hidden": "true" } }), h("span", { text: k }))));
    const value = cost ? f.money : f.count;
    const rows = view.days.filter((d) => (cost ? d.cost : d.tokens) > 0).map((d) => [f.longDay(d.day), value(cost ? d.cost : d.tokens), ...(cost ? d.costs : d.tokenCounts).map(value)]);
    const table = this.table(caption, ["Day", "Total", ...view.stackKeys], rows, [1, ...view.stackKeys.map((_, i) => i + 2)]);
    const details = h("details", { className: "chart-table" }, h("summary", { text: `Table: ${caption.toLowerCase()} (${rows.length} day${rows.length === 1 ? "" : "s"} with spend)` }), table);
    return h("section", { className: "daily", attrs: { "aria-labelledby": "usage-daily-title" } }, h("h2", { text: caption, attrs: { id: "usage-daily-title" } }), h("figure", {}, chart, legend), details);
  }

  private sessions(view: UsageView): HTMLElement {
    const f = this.fmt;
    const rows = view.topSessions.map((s) => {
      const open = button(s.title, "link-button", () => this.api.postMessage({ type: "openSession", path: s.path }));
      open.setAttribute("title", s.path);
      const cell = h("span", {}, open, ...(s.rolledUp > 0 ? [h("span", { className: "muted", text: ` + ${s.rolledUp} fork${s.rolledUp === 1 ? "" : "s"}` })] : []));
      return [cell, s.cwd, f.money(s.cost), f.count(s.tokens)];
    });
    return h("section", {}, h("h2", { text: "Top sessions" }), rows.length > 0 ? this.table("Sessions by cost (select one to open it)", ["Session", "Project", "Cost", "Tokens"], rows, [2, 3]) : h("p", { text: "No session spent anything in this period." }));
  }

  private projects(view: UsageView): HTMLElement {
    const f = this.fmt;
    const rows = view.projects.map((p) => [p.name || "(no cwd)", f.count(p.sessions), f.money(p.cost), f.count(p.tokens)]);
    return h("section", {}, h("h2", { text: "Top projects" }), this.table("Projects by cost", ["Project", "Sessions", "Cost", "Tokens"], rows, [1, 2, 3]));
  }

  private models(view: UsageView): HTMLElement {
    const f = this.fmt;
    const rows = view.models.map((m) => [m.name, f.money(m.cost), f.count(m.tokens)]);
    return h("section", {}, h("h2", { text: "Models" }), this.table("Models by cost (answers and cache warming)", ["Model", "Cost", "Tokens"], rows, [1, 2]));
  }
}
