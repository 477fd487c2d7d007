// The Usage view as a person sees it (code-server + Chromium): Pi Sessions:
// Show Usage draws the cost per day stacked by model for the workspace's
// sessions, with totals, the compaction's cost apart, a table behind the chart
// and the top sessions (a click opens the session in the reader); the period
// control redraws it; a window reload brings it back; the page loads nothing from the network and runs only
// the script carrying its CSP nonce; axe-core finds no WCAG A/AA violation;
// screenshots in light, dark and high-contrast themes.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { axeViolations, describeViolations, WCAG_AA } from "./axe";
import { workbench } from "./context";
import { piSessionFolder, STEP_MS } from "./summary-panel-page";
import { ALL_THEMES, WEBVIEWS } from "./workbench";

const DAY = 86_400_000;
const MODELS = ["claude-sonnet-4-5", "gpt-5.1-codex", "gemini-2.5-pro"];
const PROVIDERS = ["anthropic", "openai", "google"];

function sessionText(cwd: string, n: number, title: string): string {
  const now = Date.now();
  const lines: object[] = [{ type: "session", version: 3, id: `0197c000-0000-7000-8000-00000usage${n}`, timestamp: new Date(now - 20 * DAY).toISOString(), cwd }];
  let parent: string | null = null;
  for (let d = 20; d >= 0; d--) {
    if ((d + n) % 4 === 0) continue;
    const at = new Date(now - d * DAY - (n + 1) * 3_600_000);
    const m = (d + n) % 3;
    lines.push({ type: "message", id: `u${n}-${d}`, parentId: parent, timestamp: at.toISOString(), message: { role: "user", content: d === 20 ? title : `step ${d}`, timestamp: at.getTime() } });
    const cost = Math.round((0.2 + ((d * 7 + n * 13) % 11) / 5) * 100) / 100;
    lines.push({
      type: "message",
      id: `a${n}-${d}`,
      parentId: `u${n}-${d}`,
      timestamp: at.toISOString(),
      message: { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: PROVIDERS[m], model: MODELS[m], usage: { input: 20_000 + d * 1000, output: 900, cacheRead: 60_000, cacheWrite: 2000, totalTokens: 82_900 + d * 1000, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } }, stopReason: "stop", timestamp: at.getTime() },
    });
    parent = `a${n}-${d}`;
  }
  const at = new Date(now - 2 * DAY);
  lines.push({ type: "compaction", id: `c${n}`, parentId: parent, timestamp: at.toISOString(), summary: "Summary", firstKeptEntryId: parent, tokensBefore: 90_000, usage: { input: 30_000, output: 1200, cacheRead: 0, cacheWrite: 0, totalTokens: 31_200, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.42 } } });
  lines.push({ type: "session_info", id: `n${n}`, parentId: `c${n}`, timestamp: at.toISOString(), name: title });
  return lines.map((l) => `${JSON.stringify(l)}\n`).join("");
}

const TITLES = ["Usage: refactor the parser", "Usage: write the docs", "Usage: fix the flaky test"];

function usageFrame(): Promise<Frame> {
  return workbench().webviewFrame(WEBVIEWS.usage);
}

suite("workbench: the Usage view", () => {
  const paths: string[] = [];
  const requests: string[] = [];

  suiteSetup(async () => {
    const wb = workbench();
    const folder = piSessionFolder(wb);
    mkdirSync(folder, { recursive: true });
    TITLES.forEach((title, n) => {
      const path = join(folder, `2026-03-0${n + 1}T10-00-00-000Z_usage-ui-${n}.jsonl`);
      writeFileSync(path, sessionText(wb.paths.workspaceDir, n, title));
      paths.push(path);
    });
    // What webview documents asked for (the workbench's own traffic is not the page's).
    wb.page.on("request", (request) => {
      let frame;
      try {
        frame = request.frame();
      } catch {
        return; // a service worker's request: no frame
      }
      if (frame.name() === "active-frame" || /webview/.test(frame.url())) requests.push(request.url());
    });
    await wb.openViewContainer("Pi Sessions");
    await wb.runCommand("Pi Sessions: Refresh");
    await wb.treeRow("Sessions", TITLES[0]!).first().waitFor({ timeout: STEP_MS });
  });

  suiteTeardown(async () => {
    const wb = workbench();
    for (const path of paths) rmSync(path, { force: true });
    await wb.runCommand("View: Close All Editors");
    await wb.runCommand("Pi Sessions: Refresh");
    await wb.runCommand("View: Show Explorer");
  });

  test("Show Usage draws the month per day by model, totals, the compaction apart, a table and the top sessions; the period redraws it", async () => {
    const wb = workbench();
    const origin = new URL(wb.page.url()).origin;
    const before = requests.length;
    await wb.runCommand("Pi Sessions: Show Usage");
    const frame = await usageFrame();
    // The 30-day default: every day of the month is a bar slot; three models in the legend.
    await frame.locator(".legend li").first().waitFor({ timeout: STEP_MS });
    const legend = await frame.locator(".legend li").allTextContents();
    for (const key of ["anthropic/claude-sonnet-4-5", "openai/gpt-5.1-codex", "google/gemini-2.5-pro"]) assert.ok(legend.includes(key), `${key} in the legend ${legend.join(", ")}`);
    assert.ok(legend.includes("compaction"), "the compaction's cost is a part of its own");
    const compactionCard = await frame.locator(".card", { hasText: "Compaction" }).locator(".card-value").textContent();
    assert.equal(compactionCard, new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(1.26));
    assert.ok((await frame.locator("svg.chart rect.series").count()) > 20, "stacked bars drawn");
    // The table behind the chart: one row per day with spend, the same parts.
    await frame.locator("details.chart-table summary").click();
    const tableRows = await frame.locator("details.chart-table tbody tr").count();
    assert.ok(tableRows >= 14 && tableRows <= 21, `${tableRows} days with spend`);
    const sessions = await frame.locator("section", { hasText: "Top sessions" }).locator("tbody button").allTextContents();
    assert.deepEqual([...sessions].sort(), [...TITLES].sort());
    const monthStatus = await frame.locator(".status").textContent();
    await frame.locator("#usage-period").selectOption("7d");
    await frame.waitForFunction((previous) => document.querySelector(".status")?.textContent !== previous, monthStatus, { timeout: STEP_MS });
    assert.equal(await frame.locator("#usage-period").inputValue(), "7d");
    const weekRows = await frame.locator("details.chart-table tbody tr").count();
    assert.ok(weekRows <= 7 && weekRows > 0, `${weekRows} days in a week`);
    // A click on a top session opens it in the reader.
    await frame.locator("section", { hasText: "Top sessions" }).locator("tbody button", { hasText: TITLES[1]! }).click();
    await wb.page.locator(".tab", { hasText: TITLES[1]!.slice(0, 20) }).first().waitFor({ timeout: STEP_MS });
    // Nothing from elsewhere: code-server's own pages, and the extension's own files through VS Code's
    // webview resource host (served by the webview's service worker from the extension folder, no network).
    const own = (url: string): boolean => {
      if (url.startsWith(origin) || url.startsWith("data:") || url.startsWith("blob:")) return true;
      const u = new URL(url);
      // The reader the click opens loads its own script and style too.
      return u.hostname.endsWith(".vscode-resource.vscode-cdn.net") && /\/(dist\/(usage|reader)\.js|media\/(webview|usage|reader)\.css)$/.test(u.pathname);
    };
    const seen = requests.slice(before);
    assert.ok(seen.some((url) => url.endsWith("/dist/usage.js")), "the page's script was seen loading");
    assert.deepEqual(seen.filter((url) => !own(url)), []);
  });

  test("the page: one script, carrying the CSP's nonce; no WCAG A/AA violation (axe-core)", async () => {
    const wb = workbench();
    await wb.runCommand("Pi Sessions: Show Usage");
    const frame = await usageFrame();
    const csp = await frame.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    assert.ok(csp, "a CSP");
    assert.match(csp, /default-src 'none'/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    assert.ok(nonce && nonce.length >= 16, `a nonce in ${csp}`);
    assert.doesNotMatch(csp, /unsafe-(inline|eval)/);
    // VS Code's own acquireVsCodeApi script (id _vscodeApiScript, put in by the webview host) aside: ours alone.
    const scripts = (await frame.locator("script").evaluateAll((list) => list.map((s) => ({ id: s.id, nonce: (s as HTMLScriptElement).nonce, src: (s as HTMLScriptElement).src })))).filter((s) => s.id !== "_vscodeApiScript");
    assert.equal(scripts.length, 1, JSON.stringify(scripts));
    assert.equal(scripts[0]!.nonce, nonce);
    assert.match(scripts[0]!.src, /usage\.js/);
    const violations = await axeViolations(frame, WCAG_AA);
    assert.equal(violations.length, 0, describeViolations(violations));
  });

  test("after a window reload the Usage view is back, drawn with the period chosen before (the panel serializer)", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.runCommand("Pi Sessions: Show Usage");
    let frame = await usageFrame();
    await frame.locator("#usage-period").selectOption("90d");
    await frame.waitForFunction(() => (document.querySelector<HTMLSelectElement>("#usage-period")?.value ?? "") === "90d", undefined, { timeout: STEP_MS });
    await wb.page.waitForTimeout(600);
    await wb.runCommand("Developer: Reload Window");
    await wb.ready();
    frame = await usageFrame();
    await frame.locator(".legend li").first().waitFor({ timeout: STEP_MS });
    assert.equal(await frame.locator("#usage-period").inputValue(), "90d");
    const sessions = await frame.locator("section", { hasText: "Top sessions" }).locator("tbody button").allTextContents();
    assert.deepEqual([...sessions].sort(), [...TITLES].sort());
    assert.match(await wb.extensionLog(), /usage view restored/);
    // Closed, so the next reload restores no panel while the next test opens its own.
    await wb.runCommand("View: Close All Editors");
  });

  test("screenshots in light, dark and high-contrast themes", async () => {
    const w = workbench();
    const shots: string[] = [];
    await w.withThemes(ALL_THEMES, async (theme) => {
      await w.runCommand("View: Close All Editors");
      await w.runCommand("Pi Sessions: Show Usage");
      const frame = await usageFrame();
      await frame.locator("#usage-period").selectOption("30d");
      // Drawn for the period chosen, read in the same look as the wait (the page may draw more than once
      // while the window's sessions are listed again after the theme's reload).
      const drawn = await frame.waitForFunction(
        () => {
          if ((document.querySelector<HTMLSelectElement>("#usage-period")?.value ?? "") !== "30d" || document.querySelectorAll(".legend li").length === 0) return false;
          const fills = [...new Set(Array.from(document.querySelectorAll("rect.series")).map((r) => getComputedStyle(r).fill))];
          return fills.length >= 4 ? fills : false;
        },
        undefined,
        { timeout: STEP_MS },
      );
      const fills = (await drawn.jsonValue()) as string[];
      assert.match((await frame.locator("body").getAttribute("class")) ?? "", theme.bodyClass);
      // Every part takes a colour of the theme (none left black: a chart colour the theme does not define falls back).
      assert.ok(fills.length >= 4, `${theme.name}: ${fills.join(", ")}`);
      for (const fill of fills) assert.ok(fill !== "rgb(0, 0, 0)" && fill !== "none", `${theme.name}: a part drawn ${fill}`);
      const swatches = await frame.locator(".legend .swatch").evaluateAll((list) => list.map((s) => getComputedStyle(s).backgroundColor));
      for (const swatch of swatches) assert.ok(swatch !== "rgba(0, 0, 0, 0)" && swatch !== "rgb(0, 0, 0)", `${theme.name}: a legend swatch ${swatch}`);
      const violations = await axeViolations(frame, WCAG_AA);
      assert.equal(violations.length, 0, `${theme.name}: ${describeViolations(violations)}`);
      shots.push(await w.screenshot(`readme/usage-${theme.name}`));
    });
    for (const path of shots) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    assert.equal(new Set(shots.map((path) => readFileSync(path).toString("base64"))).size, 3, "three different pictures");
  });
});
