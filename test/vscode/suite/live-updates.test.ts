// Live: a session file in pi's folder (outside the workspace) that another
// process appends to shows the new entries (only the appended bytes are read);
// a new file there joins the list; a rewritten file is read whole.
import * as assert from "node:assert/strict";
import { appendFileSync, copyFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Internals } from "../../../src/extension/internals";
import { BRANCHED_ID, extensionInternals, fixturePath, piDir, waitFor } from "./helpers";

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
