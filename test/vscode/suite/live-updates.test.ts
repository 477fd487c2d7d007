// Live: a session file in pi's folder (outside the workspace) that another
// process appends to shows the new entries (only the appended bytes are read);
// a new file there joins the list; a rewritten file is read whole.
import * as assert from "node:assert/strict";
import { appendFileSync, copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { SESSIONS_PAGE, SHOW_MORE_SESSIONS_COMMAND_ID, type SessionsNode } from "../../../src/extension/views/sessions-view";
import { BRANCHED_ID, extensionInternals, fixturePath, piDir, waitFor } from "./helpers";

function assistantLine(id: string, parentId: string, text: string): string {
  // Far ahead: the session stays the newest, so its row keeps its place in the Sessions view.
  const timestamp = "2099-01-01T10:00:00.000Z";
  const usage = { input: 1200, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 1230, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  return JSON.stringify({ type: "message", id, parentId, timestamp, message: { role: "assistant", content: [{ type: "text", text }], provider: "anthropic", model: "claude-sonnet-4-5", usage, stopReason: "stop", timestamp: Date.parse(timestamp) } }) + "\n";
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function userLine(id: string, parentId: string, text: string): string {
  const timestamp = "2026-02-01T10:00:00.000Z";
  return JSON.stringify({ type: "message", id, parentId, timestamp, message: { role: "user", content: text, timestamp: Date.parse(timestamp) } }) + "\n";
}

suite("live updates @restricted: files changed by another process", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    await internals.services.sessions.sessionGroups();
    // A new session file in pi's folder, as pi creates one.
    path = join(piDir(), `2026-02-01T10-00-00-000Z_live-${process.pid}.jsonl`);
    copyFileSync(fixturePath(BRANCHED_ID), path);
  });

  suiteTeardown(async () => {
    rmSync(path, { force: true });
    await waitFor("the deleted file to leave the list", () => !internals.services.sessions.allPaths().includes(path), 20_000);
  });

  test("a new session file in pi's folder joins the Sessions view", async () => {
    await waitFor("the new file in the list", () => internals.services.sessions.allPaths().includes(path), 20_000);
    assert.equal(internals.services.sessions.factsOf(path)?.entryCount, 16);
  });

  test("appended lines show up; only the new bytes are read", async () => {
    await waitFor("the new file in the list", () => internals.services.sessions.factsOf(path));
    // Shown in the Entries view, the session is open (indexed in memory): the store follows its appends.
    internals.services.entriesTree.show(path);
    await internals.services.entriesTree.current();
    const appendedBefore = internals.services.store.stats.appended;
    appendFileSync(path, userLine("n0000001", "s3000001", "One more question from pi running elsewhere."));
    await waitFor("the appended entry", () => internals.services.sessions.factsOf(path)?.entryCount === 17, 20_000);
    assert.ok(internals.services.store.stats.appended > appendedBefore, "read as an append");
    assert.equal(internals.services.store.peek(path)?.index.leafId, "n0000001");
    // The Entries view of that session shows it too.
    const model = await internals.services.entriesTree.current();
    assert.equal(model?.leafId, "n0000001");
    // Which watcher the host delivered events through (both are on; see session-watcher.ts).
    console.log(`      watch events so far: ${JSON.stringify(internals.watcher.eventCounts)}`);
  });

  test("one pi write: one refresh (both watchers' events), the session's row and the changed Entries nodes fired, nothing else", async () => {
    await waitFor("the appended entry", () => internals.services.sessions.factsOf(path)?.entryCount === 17, 20_000);
    const { store, sessions, sessionsTree, entriesTree } = internals.services;
    entriesTree.show(path);
    await entriesTree.current();
    // The row handed out, as the visible view does (a row never handed out is not refreshed).
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
    for (const group of await sessionsTree.getChildren()) await sessionsTree.getChildren(group);
    // A first answer (the row may move to the top once); the write measured is the second.
    appendFileSync(path, assistantLine("a0000001", "n0000001", "A first answer."));
    await waitFor("the first answer", () => sessions.factsOf(path)?.leafId === "a0000001", 20_000);
    await sleep(1500);

    const refreshes = (): number => store.stats.appended + store.stats.unchanged + store.stats.rewritten + store.stats.opened;
    const refreshesBefore = refreshes();
    const unchangedBefore = store.stats.unchanged;
    const deliveredBefore = internals.watcher.stats.delivered;
    const eventsBefore = { ...internals.watcher.eventCounts };
    const sessionsFired: unknown[] = [];
    const entriesFired: unknown[] = [];
    const listeners = [sessionsTree.onDidChangeTreeData((e) => sessionsFired.push(e)), entriesTree.onDidChangeTreeData((e) => entriesFired.push(e))];
    try {
      appendFileSync(path, assistantLine("a0000002", "a0000001", "A second answer."));
      await waitFor("the second answer", () => sessions.factsOf(path)?.leafId === "a0000002" && entriesFired.length > 0, 20_000);
      // Both watchers report the write here (code-server); the later one is often 80 ms or more behind.
      const bothReported = (): boolean => (["vscode", "fs.watch"] as const).every((source) => internals.watcher.eventCounts[source] > eventsBefore[source]);
      await waitFor("both watchers' events", bothReported, 3000).catch(() => undefined);
      await sleep(500);
      console.log(`      events for one write: ${JSON.stringify(eventsBefore)} → ${JSON.stringify(internals.watcher.eventCounts)}`);

      assert.equal(refreshes() - refreshesBefore, 1, `one refresh: ${JSON.stringify(store.stats)}`);
      assert.equal(store.stats.unchanged, unchangedBefore, "no refresh that found nothing new");
      assert.equal(internals.watcher.stats.delivered - deliveredBefore, 1, "one change delivered");
      assert.deepEqual(sessionsFired, [[sessionsTree.sessionNode(path)]], "the session's row alone, once");
      assert.equal(entriesFired.length, 1, "one Entries refresh");
      const nodes = entriesFired[0];
      assert.ok(Array.isArray(nodes) && nodes.length > 0 && nodes.length <= 2, `changed nodes only, not the whole tree: ${JSON.stringify(nodes)}`);
      const keys = (nodes as { key: string }[]).map((n) => n.key);
      assert.ok(keys.every((key) => key.startsWith(`${path}#`)), keys.join(", "));
      assert.ok(keys.includes(`${path}#a0000001`), "the previous leaf (its mark moves)");
    } finally {
      for (const listener of listeners) listener.dispose();
    }
  });

  test("a long group shows a page of rows and Show more…; a write to a row held back refreshes its group, which then starts with it", async () => {
    const { sessions, sessionsTree: tree } = internals.services;
    // An old session: last in "last activity" order.
    const old = join(piDir(), `2020-01-01T00-00-00-000Z_old-${process.pid}.jsonl`);
    const header = JSON.stringify({ type: "session", version: 3, id: `old-${process.pid}`, timestamp: "2020-01-01T00:00:00.000Z", cwd: process.env.PI_SESSIONS_TEST_WORKSPACE }) + "\n";
    writeFileSync(old, header + userLine("o0000001", "", "An old question.").replace('"parentId":""', '"parentId":null').replaceAll("2026-02-01T10:00:00.000Z", "2020-01-01T00:00:00.000Z"));
    const pathsOf = (rows: SessionsNode[]): string[] => rows.flatMap((r) => (r.kind === "session" ? [r.path] : []));
    try {
      await waitFor("the old session listed", () => sessions.factsOf(old)?.entryCount === 1, 20_000);
      tree.setPageSize(1);
      const [group] = await tree.getChildren();
      const total = (group as Extract<SessionsNode, { kind: "group" }>).group.files.length;
      const rows = await tree.getChildren(group);
      assert.equal(rows.length, 2, "one row and Show more…");
      const more = rows[1]!;
      assert.equal(more.kind, "more");
      const moreItem = tree.getTreeItem(more);
      assert.equal(moreItem.label, "Show more…");
      assert.equal(moreItem.description, `${total - 1} more sessions`);
      assert.ok(!pathsOf(rows).includes(old));

      const fired: unknown[] = [];
      const changes: string[] = [];
      const listeners = [tree.onDidChangeTreeData((e) => fired.push(e)), sessions.onDidChange((c) => changes.push(c.paths ? `${c.paths.length} rows` : "the list"))];
      try {
        await vscode.commands.executeCommand(SHOW_MORE_SESSIONS_COMMAND_ID, more);
        assert.deepEqual(fired, [[group]], "Show more… refreshes its group alone");
        assert.equal((await tree.getChildren(group)).length, 3, "two rows and Show more…");
        fired.length = 0;
        // pi writes to the old session: it is now the newest, so its group is refreshed to show it first.
        appendFileSync(old, assistantLine("o0000002", "o0000001", "A late answer."));
        await waitFor("the group refreshed", () => fired.length > 0, 20_000);
        await new Promise((resolve) => setTimeout(resolve, 500));
        assert.deepEqual(fired, [[group]], `the group alone, once (the model's changes: ${changes.join(", ")}; events ${JSON.stringify(internals.watcher.eventCounts)})`);
        assert.equal(pathsOf(await tree.getChildren(group))[0], old);
      } finally {
        for (const listener of listeners) listener.dispose();
      }
    } finally {
      tree.setPageSize(SESSIONS_PAGE);
      rmSync(old, { force: true });
      await waitFor("the old session gone from the list", () => !sessions.allPaths().includes(old), 20_000);
    }
  });

  test("a rewritten file is read again whole", async () => {
    await waitFor("the new file in the list", () => internals.services.sessions.factsOf(path));
    const rewrittenBefore = internals.services.store.stats.rewritten;
    const header = JSON.stringify({ type: "session", version: 3, id: "rewritten-0000", timestamp: "2026-02-01T11:00:00.000Z", cwd: "/x" }) + "\n";
    writeFileSync(path, header + userLine("w0000001", "", "A different session now.").replace('"parentId":""', '"parentId":null'));
    await waitFor("the rewritten file", () => internals.services.sessions.factsOf(path)?.entryCount === 1, 20_000);
    assert.ok(internals.services.store.stats.rewritten > rewrittenBefore);
    assert.equal(internals.services.sessions.factsOf(path)?.title, "A different session now.");
  });
});
