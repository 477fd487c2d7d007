// The BUNDLED Usage webview (src/webview/usage/main.ts) in happy-dom, fed the
// host's own report (usageView over catalogue rows of real session files): the
// totals, a bar per part of each day, the table behind the chart, the top
// sessions posting only the path they were shown, option changes posted,
// titles from session files rendered as text, and invalid messages ignored
// both ways (the protocol's validators).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row";
import { readRecord } from "../../../src/core/catalogue/read-record";
import { usageView } from "../../../src/extension/usage/usage-view";
import { isUsageHostMessage, isUsageWebviewMessage, type UsageViewOptions } from "../../../src/webview/usage-protocol";
import { buildWebviewBundle, openWebview, type WebviewPage } from "./support/webview-harness";

const dir = mkdtempSync(join(tmpdir(), "usage-webview-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const HOSTILE = '<img src=x onerror="window.__pwned=1">';
const NOW = Date.parse("2026-05-10T12:00:00.000Z");
const OPTIONS: UsageViewOptions = { period: "7d", stack: "model", scope: "workspace", rollUp: false };

function row(id: string, title: string, answers: [string, number, string][]): CatalogueRow {
  const lines: object[] = [{ type: "session", version: 3, id, timestamp: answers[0]![0], cwd: `/work/${id}` }];
  let parent: string | null = null;
  answers.forEach(([at, cost, model], k) => {
    lines.push({ type: "message", id: `${id}u${k}`, parentId: parent, timestamp: at, message: { role: "user", content: title, timestamp: Date.parse(at) } });
    const usage = { input: 1000, output: 200, cacheRead: 3000, cacheWrite: 100, totalTokens: 4300, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
    lines.push({ type: "message", id: `${id}a${k}`, parentId: `${id}u${k}`, timestamp: at, message: { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: "anthropic", model, usage, stopReason: "stop", timestamp: Date.parse(at) } });
    parent = `${id}a${k}`;
  });
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const record = readRecord(path, rowVersionPolicy({}));
  if (record.kind !== "session") throw new Error("no session");
  return record.row;
}

let bundle: string;
let page: WebviewPage;
let rows: CatalogueRow[];
beforeAll(async () => {
  process.env.TZ = "UTC";
  bundle = await buildWebviewBundle("src/webview/usage/main.ts");
  rows = [
    row("alpha", "Fix the parser", [["2026-05-08T10:00:00.000Z", 1.5, "opus"], ["2026-05-09T10:00:00.000Z", 0.25, "haiku"]]),
    row("beta", HOSTILE, [["2026-05-09T11:00:00.000Z", 2, "opus"]]),
  ];
});
afterEach(async () => page?.close());

describe("the Usage webview", () => {
  it("says ready, then draws the report: totals, stacked bars, legend, the table, top sessions", () => {
    page = openWebview(bundle);
    expect(page.posted).toEqual([{ type: "ready" }]);
    const view = usageView(rows, OPTIONS, NOW);
    page.send({ type: "report", options: OPTIONS, view });
    const doc = page.document;
    expect(page.posted[1]).toEqual({ type: "shown", days: 7 });
    const card = (label: string) => Array.from(doc.querySelectorAll(".card")).find((c) => c.querySelector(".card-label")?.textContent === label)!.querySelector(".card-value")!.textContent;
    expect(card("Cost")).toBe("$3.75");
    expect(card("Tokens")).toBe("12,900");
    expect(card("Sessions")).toBe("2");
    expect(Array.from(doc.querySelectorAll(".legend li")).map((l) => l.textContent)).toEqual(["anthropic/opus", "anthropic/haiku"]);
    // One bar part per (day, model) with spend: the 8th (opus), the 9th (opus, haiku).
    expect(doc.querySelectorAll("svg.chart rect.series")).toHaveLength(3);
    expect(doc.querySelector("svg.chart")!.getAttribute("aria-hidden")).toBe("true");
    const tableRows = Array.from(doc.querySelectorAll("details.chart-table tbody tr")).map((tr) => Array.from(tr.children).map((c) => c.textContent));
    expect(tableRows).toEqual([
      ["Fri, May 8, 2026", "$1.50", "$1.50", "$0.00"],
      ["Sat, May 9, 2026", "$2.25", "$2.00", "$0.25"],
    ]);
    const top = Array.from(doc.querySelectorAll<HTMLButtonElement>("section button.link-button"));
    expect(top.map((b) => b.textContent)).toEqual([HOSTILE, "Fix the parser"]);
    expect(doc.querySelector("img")).toBeNull();
    expect((page.window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    top[1]!.click();
    expect(page.posted[page.posted.length - 1]).toEqual({ type: "openSession", path: rows[0]!.path });
  });

  it("posts option changes; the metric is the page's own (kept in its state)", () => {
    page = openWebview(bundle);
    page.send({ type: "report", options: OPTIONS, view: usageView(rows, OPTIONS, NOW) });
    const period = page.document.querySelector<HTMLSelectElement>("#usage-period")!;
    period.value = "all";
    period.dispatchEvent(new page.window.Event("change"));
    expect(page.posted[page.posted.length - 1]).toEqual({ type: "setOptions", options: { ...OPTIONS, period: "all" } });
    const metric = page.document.querySelector<HTMLSelectElement>("#usage-metric")!;
    metric.value = "tokens";
    metric.dispatchEvent(new page.window.Event("change"));
    expect(page.savedStates[page.savedStates.length - 1]).toEqual({ metric: "tokens" });
    expect(page.document.querySelector("#usage-daily-title")!.textContent).toBe("Tokens per day, split by model");
  });

  it("ignores invalid host messages; the host's validator refuses what a page may not ask", () => {
    page = openWebview(bundle);
    const view = usageView(rows, OPTIONS, NOW);
    const bad = [
      { type: "report", options: OPTIONS, view: { ...view, days: view.days.map((d) => ({ ...d, costs: [1] })) } },
      { type: "report", options: { ...OPTIONS, period: "1y" }, view },
      { type: "report", options: OPTIONS, view: { ...view, totals: { ...view.totals, cost: Number.NaN } } },
      { type: "script", options: OPTIONS },
    ];
    for (const message of bad) {
      expect(isUsageHostMessage(message)).toBe(false);
      page.send(message);
    }
    expect(page.document.querySelector("svg.chart")).toBeNull();
    expect(isUsageHostMessage({ type: "report", options: OPTIONS, view })).toBe(true);
    expect(isUsageWebviewMessage({ type: "openSession", path: "" })).toBe(false);
    expect(isUsageWebviewMessage({ type: "setOptions", options: { ...OPTIONS, scope: "everything" } })).toBe(false);
    expect(isUsageWebviewMessage({ type: "ready", extra: 1 })).toBe(false);
  });
});
