// A pi 1.5 session only listed in the Sessions view (not selected, not open),
// whose row's full read kept no projected sum (its usage came from the last
// answer): pi's first write to it (the failed answer) asks the catalogue's fill
// child for the sum ahead, so the context edit pi writes next on an auto-retry
// is carried from the appended bytes — no whole read — and the row's tokens
// are then pi 1.5's from scratch. As pi writes them (the edit right after the
// failed answer, before the child can answer; or both seen in one write), the
// edit's refresh waits for that sum rather than reading the file.
import * as assert from "node:assert/strict";
import { appendFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { semanticsFor } from "../../../src/core/agent";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import type { Internals } from "../../../src/extension/internals";
import { extensionInternals, piDir, waitFor } from "./helpers";

const ENTRIES = 400;

/** A pi 1.5 session (its system message first), no compaction, no edit, ending on an answer with usage. */
function sessionText(sessionId: string): { text: string; leafId: string } {
  const lines = [JSON.stringify({ type: "session", version: 3, id: sessionId, timestamp: "2026-03-02T10:00:00.000Z", cwd: "/elsewhere" })];
  let parentId: string | null = null;
  for (let i = 0; i < ENTRIES; i++) {
    const id = `l15e${i.toString(16).padStart(4, "0")}`;
    const usage = { input: 1000 + i, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 1010 + i, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const message =
      i === 0
        ? { role: "system", content: "", sections: { preamble: "You are pi." }, toolsAdded: [{ name: "read", description: "Read a file" }], timestamp: 1 }
        : i % 2
          ? { role: "user", content: [{ type: "text", text: `question ${i} `.repeat(1 + (i % 9)) }], timestamp: 2 }
          : { role: "assistant", content: [{ type: "text", text: `answer ${i} `.repeat(1 + (i % 5)) }], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: 3 };
    lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: new Date(Date.UTC(2026, 2, 2, 10) + i * 1000).toISOString(), message }));
    parentId = id;
  }
  return { text: lines.map((l) => `${l}\n`).join(""), leafId: parentId! };
}

/** What pi 1.5 writes on an auto-retry: the failed answer, then `context_edit null` of it. */
function retryLines(parentId: string, tag: string): { failed: string; edit: string; editId: string } {
  const failedId = `${tag}fail`;
  const editId = `${tag}edit`;
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const failed = { type: "message", id: failedId, parentId, timestamp: "2026-03-02T12:00:00.000Z", message: { role: "assistant", content: [], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "error", errorMessage: "overloaded", timestamp: 4 } };
  const edit = { type: "context_edit", id: editId, parentId: failedId, timestamp: "2026-03-02T12:00:01.000Z", targetId: failedId, replacement: null };
  return { failed: `${JSON.stringify(failed)}\n`, edit: `${JSON.stringify(edit)}\n`, editId };
}

suite("pi 1.5: a context edit appended to a listed session", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
    path = join(piDir(), `2026-03-02T10-00-00-000Z_pi15-listed-edit-${process.pid}.jsonl`);
  });

  suiteTeardown(() => {
    rmSync(path, { force: true });
    rmSync(path.replace(".jsonl", "-at-once.jsonl"), { force: true });
  });

  test("after an ordinary append its sum is computed ahead (the fill child); the context edit then updates its Sessions row's tokens from the appended bytes: no whole read, pi 1.5's tokens", async () => {
    const { text, leafId } = sessionText("0196a000-0000-7000-8000-000000000016");
    writeFileSync(path, text);
    // Written an hour ago: the listing does not take it for a live session (no sum asked before pi's next write).
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(path, hourAgo, hourAgo);
    const { store, sessions, sessionsTree } = internals.services;
    await waitFor("the new file's row", () => sessions.allPaths().includes(path) && sessions.factsOf(path)?.entryCount === ENTRIES, 20_000);
    assert.equal(store.peek(path), undefined, "listed, not open");
    assert.equal(sessions.factsOf(path)?.usage.source, "usage");
    // The rows handed out, as the visible view does (a row never handed out is not refreshed).
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
    for (const group of await sessionsTree.getChildren()) await sessionsTree.getChildren(group);
    const catalogue = (await sessions.catalogue())!;
    const listed = { ...catalogue.stats };

    const retry = retryLines(leafId, "r1");
    appendFileSync(path, retry.failed);
    await waitFor("the failed answer in the row", () => sessions.factsOf(path)?.entryCount === ENTRIES + 1, 20_000);
    const trusted = vscode.workspace.isTrusted;
    if (trusted) {
      // Computed in the fill child (no process launches in Restricted Mode: there the edit reads the file once).
      await waitFor("the sum kept ahead", () => catalogue.stats.sumsKept > listed.sumsKept, 20_000);
      assert.equal(catalogue.stats.sumsAsked - listed.sumsAsked, 1, `asked once: ${JSON.stringify(catalogue.stats)}`);
    }
    const before = { ...catalogue.stats };
    const fired: unknown[] = [];
    const listener = sessionsTree.onDidChangeTreeData((e) => fired.push(e));
    try {
      appendFileSync(path, retry.edit);
      await waitFor("the edit in the row", () => sessions.factsOf(path)?.entryCount === ENTRIES + 2, 20_000);
    } finally {
      listener.dispose();
    }
    assert.equal(catalogue.stats.read - before.read, trusted ? 0 : 1, `whole reads: ${JSON.stringify(catalogue.stats)}`);
    assert.equal(catalogue.stats.appended - before.appended, trusted ? 1 : 0, "the edit read as appended bytes");
    assert.equal(store.peek(path), undefined, "still not open");
    // Its row, or its group when the write moved it up (its last activity is the write).
    const group = (n: unknown) => typeof n === "object" && n !== null && (n as { kind?: string }).kind === "group" && ((n as { group?: { files?: string[] } }).group?.files ?? []).includes(path);
    assert.ok(fired.some((e) => Array.isArray(e) && (e.includes(sessionsTree.sessionNode(path)) || e.some(group))), `the session's row fired: ${JSON.stringify(fired)}`);
    const fromScratch = semanticsFor("1.5").contextUsage(openSessionSync(path).pathTo());
    assert.equal(fromScratch.source, "estimate");
    assert.deepEqual(sessions.factsOf(path)?.usage, fromScratch);
  });

  test("the context edit written right after the failed answer (as pi writes them) waits for the sum in flight: no whole read, pi 1.5's tokens", async () => {
    const atOnce = path.replace(".jsonl", "-at-once.jsonl");
    const { text, leafId } = sessionText("0196a000-0000-7000-8000-000000000017");
    writeFileSync(atOnce, text);
    const hourAgo = new Date(Date.now() - 3_600_000);
    utimesSync(atOnce, hourAgo, hourAgo);
    const { store, sessions, sessionsTree } = internals.services;
    await waitFor("the new file's row", () => sessions.allPaths().includes(atOnce) && sessions.factsOf(atOnce)?.entryCount === ENTRIES, 20_000);
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
    for (const group of await sessionsTree.getChildren()) await sessionsTree.getChildren(group);
    const catalogue = (await sessions.catalogue())!;
    const before = { ...catalogue.stats };
    const retry = retryLines(leafId, "r2");
    appendFileSync(atOnce, retry.failed);
    appendFileSync(atOnce, retry.edit);
    await waitFor("the edit in the row", () => sessions.factsOf(atOnce)?.entryCount === ENTRIES + 2, 20_000);
    const trusted = vscode.workspace.isTrusted;
    const stats = JSON.stringify(catalogue.stats);
    // Trusted: seen as two writes (the edit's refresh waits for the sum the failed answer asked) or one (asked then).
    assert.equal(catalogue.stats.read - before.read, trusted ? 0 : 1, `whole reads: ${stats}`);
    if (trusted) {
      assert.ok(catalogue.stats.sumsAwaited > before.sumsAwaited, `waited for the sum: ${stats}`);
      assert.equal(catalogue.stats.sumsAsked - before.sumsAsked, 1, `asked once: ${stats}`);
    }
    assert.equal(store.peek(atOnce), undefined, "still not open");
    const fromScratch = semanticsFor("1.5").contextUsage(openSessionSync(atOnce).pathTo());
    assert.equal(fromScratch.source, "estimate");
    assert.deepEqual(sessions.factsOf(atOnce)?.usage, fromScratch);
  });
});
