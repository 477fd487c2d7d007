// The session reader as a person sees it (code-server + Chromium): a click on
// a session row opens it with the last turns; pi's write appears without the
// earlier blocks changing (a MutationObserver in the page watches them); a
// click on a message selects its entry in the Entries view; hostile text
// stays inert (remote images load nothing) and bidi controls show as tokens;
// images show from data: URIs; the time from pi's write to the block on the
// page is measured; the scroll position survives a window reload; a screenshot
// for the README. And the HTML export opened in the same real browser loads
// nothing but its own data: images, and the hostile-summary corpus exported
// stays inert there (no script, handler, dialog, request or image).
import * as assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Frame } from "playwright-core";
import { exportSession } from "../../../src/core/export";
import { sessionFromBytes } from "../../../src/core/session/open/open-session";
import { loadHostileCases } from "../../support/hostile-summaries";
import { pngImagePart } from "../../support/png";
import { workbench } from "./context";
import { piSessionFolder, STEP_MS } from "./summary-panel-page";
import { WEBVIEWS } from "./workbench";

const TITLE = "Reader: fix the parser";
const HOSTILE =
  '<script>window.__pwned=1</script><img src=x onerror="window.__pwned=2"> [link](javascript:alert(1)) rename \u202Egpj.exe ' +
  '![remote](http://127.0.0.1:9/remote-markdown.png) <img src="http://127.0.0.1:9/remote-tag.png">';
/** A screenshot pi attached to a user message, and an image a tool returned. */
const USER_IMAGE = pngImagePart(160, 90);
const RESULT_IMAGE = pngImagePart(48, 48);

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
    const question = { type: "text", text: t === 59 ? HOSTILE : `Question ${t}: what does **hello.ts** export?` };
    text += message(`u${t}`, parent, { role: "user", content: t === 58 ? [question, USER_IMAGE] : [question] });
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
    const output = { type: "text", text: "1:export const hello = 1;" };
    text += message(`t${t}`, `a${t}`, { role: "toolResult", toolCallId: `c${t}`, toolName: "bash", content: t === 58 ? [output, RESULT_IMAGE] : [output], isError: false });
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

/** A pause between pi's writes (pi does not write twice within a debounce). */
function wbSettle(): Promise<void> {
  return workbench().page.waitForTimeout(400);
}

function readerFrame(): Promise<Frame> {
  return workbench().webviewFrame(WEBVIEWS.reader);
}

suite("workbench: the session reader", () => {
  let path: string;
  /** Every request the page (and its webviews) made for a remote image of the hostile text. */
  const remoteRequests: string[] = [];

  suiteSetup(async () => {
    const wb = workbench();
    wb.page.on("request", (request) => {
      if (/remote-(markdown|tag)\.png/.test(request.url())) remoteRequests.push(request.url());
    });
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
    // The file's tail may show first (titled by the file name) while the session is indexed.
    await frame.waitForFunction((title) => document.querySelector(".reader-header h1")?.textContent?.trim() === title, TITLE, { timeout: STEP_MS });
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

  test("images show from data: URIs (the CSP allows img-src data:), decoded at their size", async () => {
    const frame = await readerFrame();
    const image = frame.locator('article[data-entry-id="u58"] img.block-image');
    await image.waitFor({ state: "attached", timeout: STEP_MS });
    // Images load lazily: in view.
    await image.scrollIntoViewIfNeeded();
    await frame.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('article[data-entry-id="u58"] img.block-image');
      return !!img && img.complete && img.naturalWidth > 0;
    }, undefined, { timeout: STEP_MS });
    assert.deepEqual(await image.evaluate((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight, (img as HTMLImageElement).src.slice(0, 22)]), [160, 90, "data:image/png;base64,"]);
    // The tool result's image is inside its folded output.
    const result = frame.locator('article[data-entry-id="t58"]');
    await result.locator("details.tool-result summary").click();
    const resultImage = result.locator("details.tool-result img.block-image");
    await resultImage.scrollIntoViewIfNeeded();
    await frame.waitForFunction(() => (document.querySelector<HTMLImageElement>('article[data-entry-id="t58"] img.block-image')?.naturalWidth ?? 0) > 0, undefined, { timeout: STEP_MS });
    assert.equal(await resultImage.evaluate((img) => (img as HTMLImageElement).naturalWidth), 48);
    assert.match((await result.locator(".block-head .detail").textContent()) ?? "", /^1 image$/);
  });

  test("hostile text is inert and a bidi override shows as a token", async () => {
    const frame = await readerFrame();
    const user = frame.locator('article[data-entry-id="u59"]');
    assert.match((await user.textContent()) ?? "", /<script>window\.__pwned=1<\/script>/);
    assert.match((await user.textContent()) ?? "", /rename ⟨U\+202E⟩gpj\.exe/);
    assert.equal(await user.locator("script, img, a[href^='javascript']").count(), 0);
    assert.equal(await frame.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
    // The markdown image is a link to its source, the <img> tag text: nothing was fetched.
    assert.equal(await user.locator('a.md-image[href="http://127.0.0.1:9/remote-markdown.png"]').count(), 1);
    assert.match((await user.textContent()) ?? "", /<img src="http:\/\/127\.0\.0\.1:9\/remote-tag\.png">/);
    assert.deepEqual(remoteRequests, []);
  });

  test("a pi write appears at the end within the time measured; the earlier blocks are not re-rendered", async () => {
    const frame = await readerFrame();
    await frame.evaluate(() => {
      const w = window as unknown as { __mutations: number; __marked: number; __arrived: Record<string, number> };
      w.__mutations = 0;
      w.__arrived = {};
      const blocks = Array.from(document.querySelectorAll("article.block"));
      w.__marked = blocks.length;
      for (const block of blocks) (block as unknown as { __mark: boolean }).__mark = true;
      const observer = new MutationObserver((records) => (w.__mutations += records.length));
      for (const block of blocks) observer.observe(block, { subtree: true, childList: true, attributes: true, characterData: true });
      // When each new block entered the page (wall clock: the runner appends on the same machine).
      new MutationObserver((records) => {
        for (const record of records) {
          for (const node of Array.from(record.addedNodes)) {
            const id = (node as HTMLElement).dataset?.entryId;
            if (id && w.__arrived[id] === undefined) w.__arrived[id] = Date.now();
          }
        }
      }).observe(document.querySelector(".blocks")!, { childList: true });
    });
    // pi writes one entry at a time; each append timed from just before the write to the block in the DOM.
    const latencies: number[] = [];
    let parent = "n1";
    for (let i = 0; i < 7; i++) {
      const id = `u${60 + i}`;
      await wbSettle();
      const line = message(id, parent, { role: "user", content: [{ type: "text", text: i === 0 ? "And one more, written by pi just now." : `Live question ${i}.` }] });
      const at = Date.now();
      appendFileSync(path, line);
      await frame.locator(`article[data-entry-id="${id}"]`).waitFor({ timeout: STEP_MS });
      const arrived = await frame.evaluate((entry) => (window as unknown as { __arrived: Record<string, number> }).__arrived[entry], id);
      latencies.push(arrived - at);
      parent = id;
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(`      pi write → block in the reader page: median ${median} ms, max ${sorted[sorted.length - 1]} ms (${latencies.join(", ")} ms; target ≤ 200)`);
    const after = await frame.evaluate(() => {
      const w = window as unknown as { __mutations: number; __marked: number };
      const blocks = Array.from(document.querySelectorAll("article.block"));
      return { mutations: w.__mutations, stillMarked: blocks.filter((b) => (b as unknown as { __mark?: boolean }).__mark).length, marked: w.__marked, last: (blocks[blocks.length - 1] as HTMLElement).dataset.entryId };
    });
    assert.deepEqual(after, { mutations: 0, stillMarked: after.marked, marked: after.marked, last: "u66" });
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
    // The labelled user message with its image at the top, the tool call and its result below.
    await frame.locator('article[data-entry-id="u58"]').evaluate((el) => {
      el.scrollIntoView({ block: "start" });
      // Just below the header that stays on top.
      (document.scrollingElement ?? document.documentElement).scrollTop -= (document.querySelector(".reader-header")?.getBoundingClientRect().height ?? 0) + 12;
    });
    await frame.waitForFunction(() => (document.querySelector<HTMLImageElement>('article[data-entry-id="u58"] img')?.naturalWidth ?? 0) > 0, undefined, { timeout: STEP_MS });
    const shot = await wb.screenshot("readme/session-reader");
    assert.ok(existsSync(shot) && statSync(shot).size > 10_000);
  });

  test("after a window reload the reader is back where it was scrolled (webview state and the panel serializer)", async () => {
    const wb = workbench();
    let frame = await readerFrame();
    // An entry of the page loaded earlier (before the first page the host sends), 120 px below the top.
    const anchor = await frame.evaluate(() => {
      const block = document.querySelectorAll<HTMLElement>("article.block")[3]!;
      block.scrollIntoView({ block: "start" });
      (document.scrollingElement ?? document.documentElement).scrollTop -= 120;
      return { id: block.dataset.entryId!, top: Math.round(block.getBoundingClientRect().top) };
    });
    assert.ok(Math.abs(anchor.top - 120) <= 2, `scrolled to ${anchor.top}`);
    await wb.page.waitForTimeout(600);
    await wb.runCommand("Developer: Reload Window");
    await wb.ready();
    frame = await readerFrame();
    const block = frame.locator(`article[data-entry-id="${anchor.id}"]`);
    await block.waitFor({ timeout: STEP_MS }).catch(async (error: unknown) => {
      const log = (await wb.extensionLog()).split("\n").filter((l) => /reader/.test(l)).slice(-8).join("\n");
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nreader log:\n${log}`);
    });
    // The page asked for the first entry it had in view (the one above ours, partly scrolled out, or ours).
    assert.match(await wb.extensionLog(), /reader restored[\s\S]*the page reloaded, back to entry /);
    await frame.waitForFunction(
      ({ id, top }) => {
        const element = Array.from(document.querySelectorAll<HTMLElement>("article.block")).find((b) => b.dataset.entryId === id);
        return !!element && Math.abs(element.getBoundingClientRect().top - top) <= 4;
      },
      anchor,
      { timeout: STEP_MS },
    );
    const atEnd = await frame.evaluate(() => {
      const scroller = document.scrollingElement ?? document.documentElement;
      return scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 40;
    });
    assert.equal(atEnd, false, "not at the end");
  });
});

/** Every case of the hostile-summary corpus (test/fixtures/hostile-summaries) in every kind of block, plus images that must not show. */
function hostileCorpusSession(): string {
  const corpus = join(__dirname, "../../../../test/fixtures/hostile-summaries");
  const texts = loadHostileCases(corpus).map((c) => c.summary);
  let text = line({ type: "session", version: 3, id: "0197c000-0000-7000-8000-0000000hostl", timestamp: "2026-03-02T10:00:00.000Z", cwd: "/work/project" });
  let parent: string | null = null;
  const badImages = [
    { type: "image", mimeType: "image/svg+xml", data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>').toString("base64") },
    { type: "image", mimeType: "image/png", data: Buffer.from("<script>alert(1)</script>").toString("base64") },
    { type: "image", mimeType: 'image/png" onerror="alert(1)', data: USER_IMAGE.data },
    { type: "image", mimeType: "image/png", url: "http://127.0.0.1:9/remote-part.png" },
  ];
  texts.forEach((hostile, i) => {
    text += message(`hu${i}`, parent, { role: "user", content: [{ type: "text", text: hostile }, ...badImages] });
    text += message(`ha${i}`, `hu${i}`, {
      role: "assistant",
      content: [{ type: "thinking", thinking: hostile }, { type: "text", text: hostile }, { type: "toolCall", id: `hc${i}`, name: "read", arguments: { path: hostile.slice(0, 200) } }],
      provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 }, stopReason: "toolUse",
    });
    text += message(`ht${i}`, `ha${i}`, { role: "toolResult", toolCallId: `hc${i}`, toolName: "read", content: [{ type: "text", text: hostile }, ...badImages], isError: false });
    text += line({ type: "compaction", id: `hk${i}`, parentId: `ht${i}`, timestamp: new Date(++clock).toISOString(), summary: hostile, firstKeptEntryId: `hu${i}`, tokensBefore: 1000 });
    parent = `hk${i}`;
  });
  return text;
}

suite("browser: the HTML export works offline", () => {
  test("the hostile-summary corpus through the HTML export stays inert in Chromium", async () => {
    const wb = workbench();
    const text = hostileCorpusSession();
    const session = sessionFromBytes(Buffer.from(text));
    const html = exportSession(session, { leafId: session.index.leafId, format: "html", redact: false }).text;
    const file = join(dirname(wb.paths.agentDir), "export-hostile.html");
    writeFileSync(file, html);
    const context = await wb.page.context().browser()!.newContext();
    const page = await context.newPage();
    const requests: string[] = [];
    const dialogs: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.route("**/*", (route) => (route.request().url() === `file://${file}` ? route.continue() : route.abort()));
    try {
      await page.goto(`file://${file}`);
      await page.locator("article.block-compaction").first().waitFor({ timeout: STEP_MS });
      // Open every fold (details), so nothing hidden is left unrendered; then let anything that would run, run.
      await page.evaluate(() => document.querySelectorAll("details").forEach((d) => ((d as HTMLDetailsElement).open = true)));
      await page.mouse.move(200, 200);
      await page.waitForTimeout(500);
      const problems = await page.evaluate(() => {
        const found: string[] = [];
        const main = document.querySelector("main")!;
        for (const element of Array.from(main.querySelectorAll("*"))) {
          const tag = element.localName;
          if (["script", "iframe", "frame", "object", "embed", "svg", "math", "form", "link", "meta", "base", "style", "video", "audio", "source", "picture", "template", "textarea", "select"].includes(tag)) found.push(`<${tag}>`);
          for (const attribute of Array.from(element.attributes)) {
            if (attribute.name.startsWith("on")) found.push(`<${tag} ${attribute.name}>`);
            if (attribute.name === "style") found.push(`<${tag} style>`);
            if (["src", "srcset", "action", "formaction", "xlink:href", "data", "poster", "background"].includes(attribute.name) && !(tag === "img" && attribute.name === "src")) found.push(`<${tag} ${attribute.name}>`);
          }
          if (tag === "a" && !/^(https?:|mailto:|#)/i.test(element.getAttribute("href") ?? "#")) found.push(`<a href=${element.getAttribute("href")}>`);
          if (tag === "img") found.push(`<img src=${(element.getAttribute("src") ?? "").slice(0, 40)}>`);
        }
        return found;
      });
      assert.deepEqual(problems, []);
      assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
      assert.deepEqual(dialogs, []);
      assert.deepEqual(requests, [`file://${file}`]);
      // Each refused image is named in its block's head.
      assert.match((await page.locator('[id="entry-hu0"] .head').textContent()) ?? "", /4 images \(4 not shown: /);
    } finally {
      await context.close();
      rmSync(file, { force: true });
    }
  });

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
      // Its images are data: URIs (the page's CSP allows img-src data: only): decoded, nothing fetched.
      await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: STEP_MS });
      const sizes = await page.locator("img").evaluateAll((images) => images.map((img) => [(img as HTMLImageElement).naturalWidth, (img as HTMLImageElement).naturalHeight]));
      assert.deepEqual(sizes, [[160, 90], [48, 48]]);
      // Messages are rendered as markdown.
      assert.equal(await page.locator('[id="entry-u3"] .md strong').textContent(), "hello.ts");
      // The hostile message's remote image is a link; its <img> tag is text.
      assert.equal(await page.locator('[id="entry-u59"] a[href="http://127.0.0.1:9/remote-markdown.png"]').count(), 1);
      assert.deepEqual(requests, [`file://${file}`]);
    } finally {
      await context.close();
      rmSync(file, { force: true });
    }
  });
});
