// The Usage view in the real extension host: Pi Sessions: Show Usage opens one
// panel whose page (the real webview) draws the report; its numbers are the
// core's usage report over the listed sessions' catalogue rows; a pi write to
// a listed session (an answer with usage today) redraws it without a reload,
// from the catalogue's own refresh; options from the page are validated and a
// session is opened only when the view listed it.
import * as assert from "node:assert/strict";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { extensionInternals, piDir, run, waitFor } from "./helpers";

const ID = "0197c000-0000-7000-8000-0000000usage";

function answerLine(id: string, parentId: string | null, at: Date, cost: number, model: string): string {
  const timestamp = at.toISOString();
  return (
    JSON.stringify({
      type: "message",
      id,
      parentId,
      timestamp,
      message: {
        role: "assistant",
        content: [{ type: "text", text: "done" }],
        api: "anthropic-messages",
        provider: "anthropic",
        model,
        usage: { input: 1000, output: 100, cacheRead: 500, cacheWrite: 50, totalTokens: 1650, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } },
        stopReason: "stop",
        timestamp: at.getTime(),
      },
    }) + "\n"
  );
}

suite("usage @restricted: the Usage view", () => {
  let internals: Internals;
  let path: string;
  const now = new Date();

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
    path = join(piDir(), `2026-02-03T10-00-00-000Z_${ID}.jsonl`);
    const header = JSON.stringify({ type: "session", version: 3, id: ID, timestamp: now.toISOString(), cwd: process.env.PI_SESSIONS_TEST_WORKSPACE }) + "\n";
    const user = JSON.stringify({ type: "message", id: "u1", parentId: null, timestamp: now.toISOString(), message: { role: "user", content: "Usage test: how much?", timestamp: now.getTime() } }) + "\n";
    writeFileSync(path, header + user + answerLine("a1", "u1", now, 1.25, "claude-opus-4-5"));
    await waitFor("the session in the list", () => internals.services.sessions.allPaths().includes(path), 20_000);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(path, { force: true });
  });

  test("Show Usage opens one panel; the page draws the report of the listed sessions' rows", async () => {
    await run("piSessions.showUsage");
    const panel = await waitFor("the Usage panel", () => internals.usagePanel());
    await panel.whenShown(1);
    await run("piSessions.showUsage");
    assert.equal(internals.usagePanel(), panel, "one Usage view per window");
    const view = panel.currentView!;
    const rows = await internals.services.sessions.usageRows();
    assert.ok(rows.some((r) => r.path === path));
    // The 30-day default: our session's answer today is in it, at the top (the fixtures are older).
    assert.equal(panel.currentOptions.period, "30d");
    const ours = view.topSessions.find((s) => s.path === path);
    assert.ok(ours, "the session is among the top sessions");
    assert.equal(ours.cost, 1.25);
    assert.equal(ours.title, "Usage test: how much?");
    assert.ok(view.stackKeys.includes("anthropic/claude-opus-4-5"));
    const first = panel.measures.find((m) => m.reason === "open")!;
    assert.ok(first.rows >= rows.length - 1, "the first report counted the listed rows");
  });

  test("options from the page recompute (all time); an invalid message or an unlisted session is refused", async () => {
    const panel = internals.usagePanel()!;
    const shown = panel.shown.length;
    await panel.receive({ type: "setOptions", options: { ...panel.currentOptions, period: "all", stack: "kind" } });
    await panel.whenShown(shown + 1);
    const view = panel.currentView!;
    assert.equal(panel.currentOptions.period, "all");
    assert.deepEqual(view.stackKeys.includes("answers"), true);
    const rows = await internals.services.sessions.usageRows();
    const sum = rows.reduce((s, r) => s + r.cost, 0);
    assert.ok(Math.abs(view.totals.cost - sum) < 1e-9, `all time: ${view.totals.cost} = the rows' ${sum}`);
    await panel.receive({ type: "setOptions", options: { period: "1y", stack: "kind", scope: "workspace", rollUp: false } });
    assert.equal(panel.currentOptions.period, "all", "an invalid option is ignored");
    await panel.receive({ type: "openSession", path: "/etc/passwd" });
    assert.deepEqual(panel.refused, ["invalid message", "a session it did not show"]);
    await panel.receive({ type: "openSession", path });
    await waitFor("the reader on the session", () => vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputWebview && t.label.includes("Usage test"))));
  });

  test("a pi write to a listed session redraws the numbers without a reload", async () => {
    const panel = internals.usagePanel()!;
    panel.webviewPanel.reveal();
    const before = panel.currentView!.totals.cost;
    const shown = panel.shown.length;
    appendFileSync(path, answerLine("a2", "a1", new Date(), 0.5, "claude-haiku-4-5"));
    await waitFor("a live report with the new answer", () => panel.measures.some((m) => m.reason === "live") && Math.abs(panel.currentView!.totals.cost - (before + 0.5)) < 1e-9, 20_000);
    await panel.whenShown(shown + 1);
    assert.ok(panel.currentView!.topSessions.find((s) => s.path === path)!.cost === 1.75);
  });
});
