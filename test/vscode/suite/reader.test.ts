// The session reader and Export Session… in the real extension host: a
// session row's click (its command) opens the preview reader and selects the
// session; the page (the real webview) renders the last turns and reports it;
// pi's appends arrive as "append" without a new "init"; a message click
// reveals its entry in the Entries view and an Entries selection reveals it
// in the reader; the export command writes the file. The 100 MB measurement
// prints the time to the first rendered page, read cold and already read.
import * as assert from "node:assert/strict";
import { appendFileSync, copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import type { ReaderSnapshot } from "../../../src/extension/reader";
import { FIRST_PAINT_WAIT_MS } from "../../../src/extension/reader/reader-panel";
import { bigSessionText } from "../big-session-text";
import { BRANCHED_ID, extensionInternals, fixturePath, LINEAR_ID, piDir, run, scratchDir, waitFor } from "./helpers";

/** A measurement in the run's output (the host's console does not reach it). */
function report(text: string): void {
  const file = process.env.PI_SESSIONS_VSCODE_OUTPUT_FILE;
  if (file) appendFileSync(file, `${text}\n`);
  else console.log(text);
}

/** Resolves once the extension host's event loop has answered 10 ms timers within 30 ms for two seconds. */
async function waitIdle(): Promise<void> {
  let quiet = 0;
  const deadline = Date.now() + 120_000;
  while (quiet < 150 && Date.now() < deadline) {
    const start = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 10));
    quiet = Date.now() - start < 30 ? quiet + 1 : 0;
  }
}

function userLine(id: string, parentId: string, text: string): string {
  const timestamp = "2026-02-01T10:00:00.000Z";
  return JSON.stringify({ type: "message", id, parentId, timestamp, message: { role: "user", content: text, timestamp: Date.parse(timestamp) } }) + "\n";
}

suite("reader @restricted: the session reader and export", () => {
  let internals: Internals;
  let path: string;
  const readers = (): ReaderSnapshot[] => internals.reader.testing.panels();
  const readerOf = (sessionPath: string): ReaderSnapshot | undefined => readers().find((r) => r.sessionPath === sessionPath);

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
    // In pi's folder, so the watcher sees pi's appends.
    path = join(piDir(), `2026-02-02T10-00-00-000Z_reader-${process.pid}.jsonl`);
    copyFileSync(fixturePath(BRANCHED_ID), path);
    await waitFor("the session in the list", () => internals.services.sessions.allPaths().includes(path), 20_000);
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(path, { force: true });
  });

  test("a session row's command opens the preview reader, selects the session, and the page shows the last turns", async () => {
    const row = await internals.services.sessionsTree.getTreeItem(internals.services.sessionsTree.sessionNode(path));
    assert.equal(row.command?.command, "piSessions.openReader");
    const result = await run(row.command!.command, row.command!.arguments![0]);
    assert.equal(result.ok, true);
    // A listed session not read yet (a catalogue row) fills the Entries view after the reader's first page.
    await waitFor("the Entries view shows the session", () => internals.services.entriesTree.path === path);
    const reader = await waitFor("the first page rendered", () => readerOf(path)?.firstShownMs !== undefined && readerOf(path));
    assert.equal(reader.preview, true);
    assert.equal(reader.leafId, "s3000001");
    assert.deepEqual(reader.routed.slice(0, 2), ['webview "ready": init', 'webview "shown": shown']);
    assert.equal(reader.webviewPanel.title, internals.services.sessions.factsOf(path)?.title.slice(0, 39) + (internals.services.sessions.factsOf(path)!.title.length > 40 ? "…" : ""));
  });

  test("another row's click reuses the preview reader; Open Session pins one", async () => {
    const other = fixturePath(LINEAR_ID);
    await run("piSessions.openReader", { sessionPath: other, preview: true });
    await waitFor("the preview reader on the other session", () => readerOf(other));
    assert.equal(readers().length, 1, "one preview reader, retargeted");
    await run("piSessions.openReader", { sessionPath: path });
    await waitFor("a pinned reader, its page shown", () => readerOf(path)?.preview === false && readerOf(path)?.firstShownMs !== undefined && readerOf(path));
    assert.equal(readers().length, 2);
  });

  test("pi's append arrives as an append; earlier blocks are not sent again", async () => {
    const before = readerOf(path)!.posted.length;
    const inits = readerOf(path)!.posted.filter((type) => type === "init").length;
    appendFileSync(path, userLine("n0000001", "s3000001", "One more question, live."));
    await waitFor("the appended entry in the reader", () => readerOf(path)!.posted.slice(before).includes("append"), 20_000);
    assert.equal(readerOf(path)!.posted.filter((type) => type === "init").length, inits, "no new init");
    assert.equal(readerOf(path)!.leafId, "n0000001");
  });

  test("clicking a message reveals its entry in the Entries view, and selecting an entry reveals it in the reader", async () => {
    const click = () => internals.reader.testing.post({ type: "revealEntry", entryId: "a3000001" }, readers().findIndex((r) => r.sessionPath === path));
    assert.deepEqual(await click(), { done: true, action: "revealEntry" });
    // The Entries tree may still be redrawing the append of the test before (a reveal asked meanwhile
    // can be dropped by VS Code): clicked again after a while, as a user would.
    let clickedAt = Date.now();
    const selected = await waitFor("the entry selected", async () => {
      const node = internals.services.entriesView.selection[0];
      if (node?.kind === "entry" && node.entryId === "a3000001") return node;
      if (Date.now() - clickedAt > 4000) {
        clickedAt = Date.now();
        await click();
      }
      return undefined;
    });
    assert.equal(selected.sessionPath, path);
    const posted = readerOf(path)!.posted.length;
    const model = await internals.services.entriesTree.current();
    await internals.services.entriesView.reveal(model!.entryNode("u3000001"), { select: true, focus: false });
    await waitFor("the reader told to reveal", () => readerOf(path)!.posted.slice(posted).includes("reveal"));
  });

  test("the Entries filter applies to the reader", async () => {
    const posted = readerOf(path)!.posted.length;
    await run("piSessions.filterEntries", "user");
    await waitFor("the reader re-initialised with the filter", () => readerOf(path)?.filter === "user" && readerOf(path)!.posted.slice(posted).includes("init"));
    await run("piSessions.filterEntries", "all");
  });

  test("Open Session on an entry of another branch shows that branch (fixed), scrolled to the entry", async () => {
    await run("piSessions.openReader", { sessionPath: path, entryId: "a2000001" });
    const reader = await waitFor("the reader on the abandoned branch", () => readerOf(path)?.follow === false && readerOf(path));
    assert.equal(reader.leafId, "x2000001");
    await run("piSessions.openReader", { sessionPath: path, entryId: "u3000001" });
    await waitFor("back on the current branch", () => readerOf(path)?.leafId === "n0000001" && readerOf(path)?.follow === true);
  });

  test("a page cannot open a path, reveal a foreign entry or load a made-up page", async () => {
    const index = readers().findIndex((r) => r.sessionPath === path);
    assert.equal((await internals.reader.testing.post({ type: "openFile", path: "/etc/passwd", preview: true }, index)).done, false);
    assert.equal((await internals.reader.testing.post({ type: "openFile", entryId: "u1000001", toolCallId: "x", preview: true }, index)).done, false);
    assert.equal((await internals.reader.testing.post({ type: "revealEntry", entryId: "nope" }, index)).done, false);
    assert.equal((await internals.reader.testing.post({ type: "loadEarlier", before: 3 }, index)).done, false);
  });

  test("a reader closed (or another session opened) before its first page does not switch the Entries view to its session afterwards", async () => {
    const other = join(piDir(), `2026-02-03T10-00-00-000Z_reader-closed-${process.pid}.jsonl`);
    copyFileSync(fixturePath(LINEAR_ID), other);
    try {
      await waitFor("the session in the list", () => internals.services.sessions.allPaths().includes(other), 20_000);
      assert.equal(internals.services.store.peek(other), undefined, "not read yet: the Entries view would follow the reader's first page");
      const shown = internals.services.entriesTree.path;
      await run("piSessions.openReader", { sessionPath: other });
      assert.equal(readerOf(other)!.firstShownMs, undefined);
      readerOf(other)!.webviewPanel.dispose();
      await new Promise((resolve) => setTimeout(resolve, FIRST_PAINT_WAIT_MS + 1000));
      assert.equal(internals.services.entriesTree.path, shown, "the Entries view stays on the session it showed");
    } finally {
      rmSync(other, { force: true });
    }
  });

  test("Export Session… writes the branch (Markdown, HTML, JSONL)", async () => {
    for (const format of ["md", "html", "jsonl"] as const) {
      const target = join(scratchDir(), `export-${process.pid}.${format}`);
      rmSync(target, { force: true });
      const result = await run<{ file: string; secrets: number }>("piSessions.exportSession", { sessionPath: path, format, redact: false, target });
      assert.equal(result.ok, true, result.message);
      assert.ok(existsSync(target));
      const text = readFileSync(target, "utf8");
      if (format === "md") assert.match(text, /<!-- entry n0000001 -->\n### User/);
      if (format === "html") assert.match(text, /One more question, live\./);
      if (format === "jsonl") assert.equal(JSON.parse(text.split("\n")[0]!).parentSession, path);
    }
  });
});

suite("reader timing: a 100 MB session", () => {
  let internals: Internals;
  const readerOf = (sessionPath: string): ReaderSnapshot | undefined => internals.reader.testing.panels().find((r) => r.sessionPath === sessionPath);

  suiteSetup(async () => {
    internals = await extensionInternals();
  });

  test("a 100 MB session's last turns, rendered by the page (read cold, and already read)", async function () {
    this.timeout(600_000);
    const big = join(scratchDir(), `big-${process.pid}.jsonl`);
    writeFileSync(big, bigSessionText(100 * 1024 * 1024, "/fixture/project"));
    try {
      const cpu = process.cpuUsage();
      await run("piSessions.openReader", { sessionPath: big });
      const cold = await waitFor("the big session's first page", () => readerOf(big)?.firstShownMs, 120_000);
      const used = process.cpuUsage(cpu);
      report(`      100 MB session, not read yet: last turns rendered ${cold.toFixed(0)} ms after opening (extension-host CPU ${((used.user + used.system) / 1000).toFixed(0)} ms until then)`);
      const indexing = Date.now();
      await waitFor("the whole file indexed", () => internals.services.store.peek(big), 300_000);
      report(`      … whole file indexed ${Date.now() - indexing} ms later`);
      await waitFor("the full page after the tail", () => readerOf(big)!.posted.filter((t) => t === "init").length >= 2, 60_000);
      readerOf(big)!.webviewPanel.dispose();
      // The Entries view lists the 18,664 entries meanwhile (its own cost): measure once the host is idle again.
      await waitFor("the Entries view on the big session", () => internals.services.entriesTree.path === big, 60_000);
      await waitIdle();
      await run("piSessions.openReader", { sessionPath: big });
      const warm = await waitFor("the big session's first page again", () => readerOf(big)?.firstShownMs, 120_000);
      report(`      100 MB session, already read: last turns rendered ${warm.toFixed(0)} ms after opening`);
      assert.ok(cold > 0 && warm > 0);
    } finally {
      readerOf(big)?.webviewPanel.dispose();
      internals.services.store.forget(big);
      rmSync(big, { force: true });
    }
  });
});
