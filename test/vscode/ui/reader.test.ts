// The session reader as a person sees it (code-server + Chromium): a click on
// a session row opens it with the last turns; pi's write appears without the
// earlier blocks changing (a MutationObserver in the page watches them); a
// click on a message selects its entry in the Entries view; hostile text
// stays inert and bidi controls show as tokens; a screenshot for the README.
// And the HTML export opened in the same real browser loads nothing.
import * as assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Frame } from "playwright-core";
import { exportSession } from "../../../src/core/export";
import { sessionFromBytes } from "../../../src/core/session/open-session";
import { workbench } from "./context";
import { piSessionFolder, STEP_MS } from "./summary-panel-page";

const TITLE = "Reader: fix the parser";
const HOSTILE = '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> [link](javascript:alert(1)) rename \u202Egpj.exe';

function line(entry: Record<string, unknown>): string {
  return JSON.stringify(entry) + "\n";
}

let clock = Date.parse("2026-03-01T10:00:00.000Z");
function message(id: string, parentId: string | null, body: Record<string, unknown>): string {
  clock += 1000;
  return line({ type: "message", id, parentId, timestamp: new Date(clock).toISOString(), message: { ...body, timestamp: clock } });
}

function sessionText(cwd: string): string {
  let text = line({ type: "session", version: 3, id: "0197c000-0000-7000-8000-00000000read", timestamp: "2026-03-01T10:00:00.000Z", cwd });
  let parent: string | null = null;
  for (let t = 0; t < 60; t++) {
    text += message(`u${t}`, parent, { role: "user", content: [{ type: "text", text: t === 59 ? HOSTILE : `Question ${t}: what does **hello.ts** export?` }] });
    text += message(`a${t}`, `u${t}`, {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me look." },
        { type: "text", text: `Reading it (turn ${t}).` },
        { type: "toolCall", id: `c${t}`, name: "bash", arguments: { command: `grep -n "export" hello.ts | head -5` } },
        { type: "toolCall", id: `r${t}`, name: "read", arguments: { path: "hello.ts" } },
      ],
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 900, output: 60, cacheRead: 0, cacheWrite: 0, totalTokens: 960 },
      stopReason: "toolUse",
    });
    text += message(`t${t}`, `a${t}`, { role: "toolResult", toolCallId: `c${t}`, toolName: "bash", content: [{ type: "text", text: "1:export const hello = 1;" }], isError: false });
    text += message(`b${t}`, `t${t}`, {
      role: "assistant",
      content: [{ type: "text", text: `It exports \`hello\` (turn ${t}).\n\n- one constant\n- nothing else` }],
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      usage: { input: 1000, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 1040 },
      stopReason: "stop",
    });
    parent = `b${t}`;
  }
  text += line({ type: "label", id: "l1", parentId: "b59", timestamp: new Date(++clock).toISOString(), targetId: "u58", label: "checkpoint" });
  text += line({ type: "session_info", id: "n1", parentId: "l1", timestamp: new Date(++clock).toISOString(), name: TITLE });
  return text;
}

async function readerFrame(): Promise<Frame> {
  const wb = workbench();
  const deadline = Date.now() + STEP_MS;
  while (Date.now() < deadline) {
    for (const frame of wb.page.frames()) {
      if (frame.name() !== "active-frame" && !/\/fake\.html/.test(frame.url())) continue;
      if ((await frame.locator(".reader-header").count().catch(() => 0)) > 0 && (await frame.locator("article.block").count().catch(() => 0)) > 0) return frame;
    }
    await wb.page.waitForTimeout(100);
  }
  throw new Error("no reader webview within 20 s");
}

suite("workbench: the session reader", () => {
  let path: string;

  suiteSetup(async () => {
    const wb = workbench();
    const folder = piSessionFolder(wb);
    mkdirSync(folder, { recursive: true });
    path = join(folder, "2026-03-01T10-00-00-000Z_reader-ui.jsonl");
    writeFileSync(path, sessionText(wb.paths.workspaceDir));
    await wb.openViewContainer("Pi Sessions");
    await wb.runCommand("Pi Sessions: Refresh");
    await wb.treeRow("Sessions", TITLE).first().waitFor({ timeout: STEP_MS });
  });

  suiteTeardown(async () => {
    const wb = workbench();
    rmSync(path, { force: true });
    await wb.runCommand("View: Close All Editors");
    await wb.runCommand("Pi Sessions: Refresh");
    await wb.treeRow("Sessions", TITLE).first().waitFor({ state: "detached", timeout: STEP_MS });
    // Later suites start from a window showing the Explorer.
    await wb.runCommand("View: Show Explorer");
  });

  test("a click on the session row opens the reader on its last turns (and the Entries view)", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.clickTreeRow("Sessions", TITLE);
    const frame = await readerFrame();
    assert.equal((await frame.locator(".reader-header h1").textContent())?.trim(), TITLE);
    const ids = await frame.locator("article.block").evaluateAll((blocks) => blocks.map((b) => (b as HTMLElement).dataset.entryId));
    assert.equal(ids[ids.length - 1], "n1", "ends with the last entry");
    assert.ok(ids.length <= 40 && !ids.includes("u0"), "only the last page");
    assert.equal(await frame.locator("button.load-earlier").isVisible(), true);
    // The newest turns are in view.
    assert.equal(await frame.locator('article[data-entry-id="b59"]').isVisible(), true);
    assert.equal(await wb.page.locator(".tabs-container .tab", { hasText: TITLE }).count(), 1, "an editor tab titled with the session");
    await wb.treeRow("Entries", /Question \d+: what does/).first().waitFor({ timeout: STEP_MS });
    // Folded: thinking, arguments, results; bash highlighted; a labelled entry marked.
    assert.equal(await frame.locator('article[data-entry-id="a58"] details.thinking').getAttribute("open"), null);
    assert.deepEqual(await frame.locator('article[data-entry-id="a58"] .sh-cmd').allTextContents(), ["grep", "head"]);
    assert.equal((await frame.locator('article[data-entry-id="u58"] .label-badge').textContent())?.trim(), "label: checkpoint");
  });

  test("hostile text is inert and a bidi override shows as a token", async () => {
    const frame = await readerFrame();
    const user = frame.locator('article[data-entry-id="u59"]');
    assert.match((await user.textContent()) ?? "", /<script>window\.__pwned=1<\/script>/);
    assert.match((await user.textContent()) ?? "", /rename ⟨U\+202E⟩gpj\.exe/);
    assert.equal(await user.locator("script, img, a[href^='javascript']").count(), 0);
    assert.equal(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  });

  test("a pi write appears at the end; the earlier blocks are not re-rendered", async () => {
    const frame = await readerFrame();
    await frame.evaluate(() => {
      const w = window as unknown as { __mutations: number; __marked: number };
      w.__mutations = 0;
      const blocks = Array.from(document.querySelectorAll("article.block"));
      w.__marked = blocks.length;
      for (const block of blocks) (block as unknown as { __mark: boolean }).__mark = true;
      const observer = new MutationObserver((records) => (w.__mutations += records.length));
      for (const block of blocks) observer.observe(block, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    appendFileSync(path, message("u60", "n1", { role: "user", content: [{ type: "text", text: "And one more, written by pi just now." }] }));
    await frame.locator('article[data-entry-id="u60"]').waitFor({ timeout: STEP_MS });
    const after = await frame.evaluate(() => {
      const w = window as unknown as { __mutations: number; __marked: number };
      const blocks = Array.from(document.querySelectorAll("article.block"));
      return { mutations: w.__mutations, stillMarked: blocks.filter((b) => (b as unknown as { __mark?: boolean }).__mark).length, marked: w.__marked, last: (blocks[blocks.length - 1] as HTMLElement).dataset.entryId };
    });
    assert.deepEqual(after, { mutations: 0, stillMarked: after.marked, marked: after.marked, last: "u60" });
  });

  test("clicking a message selects its entry in the Entries view", async () => {
    const wb = workbench();
    const frame = await readerFrame();
    await frame.locator('article[data-entry-id="b58"] .markdown-body p').first().click();
    await wb.page.waitForFunction(
      () => Array.from(document.querySelectorAll(".monaco-list-row[aria-selected='true']")).some((r) => /It exports `hello` \(turn 58\)/.test(r.textContent ?? "")),
      undefined,
      { timeout: STEP_MS },
    );
  });

  test("Load earlier brings the page before", async () => {
    const frame = await readerFrame();
    const before = await frame.locator("article.block").count();
    await frame.locator("button.load-earlier").click();
    await frame.waitForFunction((n) => document.querySelectorAll("article.block").length > n, before, { timeout: STEP_MS });
  });

  test("screenshot of the reader for the README", async () => {
    const wb = workbench();
    const frame = await readerFrame();
    await frame.locator('article[data-entry-id="a58"] details.tool-args summary').first().click();
    await frame.locator('article[data-entry-id="a58"]').scrollIntoViewIfNeeded();
    const shot = await wb.screenshot("readme/session-reader");
    assert.ok(existsSync(shot) && statSync(shot).size > 10_000);
  });
});

suite("browser: the HTML export works offline", () => {
  test("the exported page renders in Chromium and makes no request at all", async () => {
    const wb = workbench();
    const text = sessionText("/work/project");
    const html = exportSession(sessionFromBytes(Buffer.from(text)), { leafId: "n1", format: "html", redact: false }).text;
    const file = join(dirname(wb.paths.agentDir), "export-offline.html");
    writeFileSync(file, html);
    // A fresh context of the same Chromium (nothing shared with the workbench).
    const context = await wb.page.context().browser()!.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await page.route("**/*", (route) => (route.request().url() === `file://${file}` ? route.continue() : route.abort()));
    try {
      await page.goto(`file://${file}`);
      await page.locator("article.block-user").first().waitFor({ timeout: STEP_MS });
      assert.equal(await page.locator("article.block").count(), 60 * 4);
      assert.deepEqual(await page.locator("p.mark").allTextContents(), ['label "checkpoint" on u58', `named "${TITLE}"`]);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      assert.match((await page.locator('[id="entry-u59"]').textContent()) ?? "", /rename ⟨U\+202E⟩gpj\.exe/);
      // The inline style applied (its hash is in the CSP): the block has its border.
      const border = await page.locator("article.block").first().evaluate((el) => getComputedStyle(el).borderLeftWidth);
      assert.equal(border, "3px");
      assert.deepEqual(requests, [`file://${file}`]);
    } finally {
      await context.close();
      rmSync(file, { force: true });
    }
  });
});
