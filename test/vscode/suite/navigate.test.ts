// Navigate, Summarize Branch and Navigate, and Undo Last Compaction in a
// trusted workspace: what pi would see after each (core: openSessionSync +
// buildContextFromPath), with the loopback model for the branch summary.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { PiSessionsApi } from "../../../src/extension/api";
import { buildContextFromPath } from "../../../src/core/context";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import type { BranchSummaryEntry } from "../../../src/core/session/format/types";
import { scenarios } from "../../support/model-server";
import { activateExtension } from "./extension-under-test";
import { BRANCHED_ID, bytes, copySession, run, setSetting, startLoopback, type Loopback } from "./helpers";

const BRANCH_SUMMARY = "## Goal\nTry a --format option.\n\n## Progress\nLooked at src/cli.ts.";

interface NavigateValue {
  written: boolean;
  outcome: string;
  newLeafId: string | null;
  oldLeafId: string | null;
  summaryEntryId: string | null;
  navigateEntryId: string | null;
  editorText?: string;
}

function contextIds(path: string): string[] {
  const session = openSessionSync(path);
  return buildContextFromPath(session.pathTo()).messages.map((m) => (m as { role: string }).role);
}

suite("Navigate, branch summary and undo (trusted workspace)", () => {
  let loopback: Loopback;
  let api: PiSessionsApi;

  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    api = await activateExtension();
    loopback = await startLoopback(() => scenarios.success(BRANCH_SUMMARY));
  });

  suiteTeardown(async () => {
    await loopback?.close();
  });

  test("Navigate to Entry without a summary: the leaf moves to the abandoned branch's tool result", async () => {
    const path = copySession(BRANCHED_ID);
    const result = await run<NavigateValue>("piSessions.navigateToEntry", { sessionPath: path, entryId: "t2000001", summary: "none" });
    assert.equal(result.ok, true, result.message);
    assert.equal(result.value!.written, true);
    assert.equal(result.value!.newLeafId, "t2000001");
    const session = openSessionSync(path);
    // pi resumes at the file's last entry: our navigation entry under t2000001.
    assert.equal(session.entry(session.index.leafId!)?.parentId, "t2000001");
    const path2 = session.index.pathIds(session.index.leafId!);
    assert.ok(path2.includes("u2000001") && !path2.includes("u3000001"));
    assert.deepEqual(contextIds(path), ["user", "assistant", "toolResult", "assistant", "toolResult", "assistant", "user", "assistant", "toolResult"]);
  });

  test("Summarize Branch and Navigate to a user message: summary of the abandoned branch under its parent, text offered again", async () => {
    const path = copySession(BRANCHED_ID);
    const index = loopback.server.requests.length;
    const fired: (string | null)[] = [];
    const listening = api.onDidBranchSummary((event) => fired.push(event.entry?.id ?? null));
    let result;
    try {
      result = await run<NavigateValue>("piSessions.summarizeBranchAndNavigate", { sessionPath: path, entryId: "u2000001", model: "loopback-openai/summarizer", focus: "", confirm: false });
    } finally {
      listening.dispose();
    }
    assert.equal(result.ok, true, result.message);
    assert.equal(result.value!.written, true);
    // A user message is re-edited: the leaf goes to its parent, and its text comes back.
    assert.equal(result.value!.newLeafId, "a1000003");
    assert.equal(result.value!.editorText, "Actually, use a --format option with text|json instead of a boolean flag.");
    assert.equal(loopback.server.requests.length, index + 1);
    const session = openSessionSync(path);
    const entry = session.entry(result.value!.summaryEntryId!) as BranchSummaryEntry;
    assert.equal(entry.type, "branch_summary");
    assert.equal(entry.parentId, "a1000003");
    assert.equal(entry.fromId, "a1000003");
    assert.ok(entry.summary.includes(BRANCH_SUMMARY), entry.summary.slice(0, 300));
    assert.deepEqual(fired, [entry.id]);
    const roles = contextIds(path);
    assert.equal(roles[roles.length - 1], "branchSummary");
  });

  test("Navigate here with pi's summary choice, cancelled by an onBeforeBranchSummary hook: nothing written", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    const hook = api.onBeforeBranchSummary(() => ({ cancel: true }));
    try {
      const result = await run<NavigateValue>("piSessions.navigateHere", { sessionPath: path, entryId: "a2000001", summary: "summarize", model: "loopback-openai/summarizer", confirm: false });
      assert.equal(result.value?.outcome, "cancelled");
    } finally {
      hook.dispose();
    }
    assert.deepEqual(bytes(path), before);
  });

  test("Undo Last Compaction: the leaf goes back before the compaction, and pi's context is what it was", async () => {
    const path = copySession(BRANCHED_ID);
    const contextBefore = contextIds(path);
    await setSetting("compaction.keepRecentTokens", 10);
    try {
      const compacted = await run<{ entry: { id: string } }>("piSessions.compactSession", { sessionPath: path, preset: "digest", focus: "", confirm: false });
      assert.equal(compacted.ok, true, compacted.message);
    } finally {
      await setSetting("compaction.keepRecentTokens", undefined);
    }
    assert.equal(contextIds(path)[0], "compactionSummary");
    const undone = await run<{ written: boolean; newLeafId: string; compactionId: string }>("piSessions.undoCompaction", { sessionPath: path });
    assert.equal(undone.ok, true, undone.message);
    assert.equal(undone.value!.newLeafId, "s3000001");
    assert.deepEqual(contextIds(path), contextBefore);
  });

  test("Migrate Session File…: a version 1 file becomes version 3, the original kept as a backup", async () => {
    const { mkdtempSync, writeFileSync, existsSync, readFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tmpdir } = await import("node:os");
    const dir = mkdtempSync(join(tmpdir(), "pi-sessions-migrate-"));
    const file = join(dir, "old.jsonl");
    const v1 = [
      { type: "session", id: "11111111-2222-4333-8444-555555555555", timestamp: "2025-06-01T10:00:00.000Z", cwd: dir },
      { type: "message", timestamp: "2025-06-01T10:00:01.000Z", message: { role: "user", content: "hello", timestamp: 1 } },
      { type: "message", timestamp: "2025-06-01T10:00:02.000Z", message: { role: "assistant", content: [{ type: "text", text: "hi" }], provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages", stopReason: "stop", usage: { input: 5, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 6 }, timestamp: 2 } },
    ];
    const original = v1.map((l) => JSON.stringify(l)).join("\n") + "\n";
    writeFileSync(file, original);
    const refusedCompaction = await run("piSessions.compactSession", { sessionPath: file, preset: "digest", focus: "", confirm: false });
    assert.equal(refusedCompaction.ok, false, "an old file is not written to before migrating");
    const result = await run<{ backup: string; fromVersion: number; toVersion: number }>("piSessions.migrateSession", { sessionPath: file, confirm: false });
    assert.equal(result.ok, true, result.message);
    assert.deepEqual([result.value!.fromVersion, result.value!.toVersion], [1, 3]);
    assert.ok(existsSync(result.value!.backup));
    assert.equal(readFileSync(result.value!.backup, "utf8"), original);
    const migrated = openSessionSync(file);
    assert.deepEqual([migrated.version, migrated.needsMigration, migrated.index.size], [3, false, 2]);
  });
});
