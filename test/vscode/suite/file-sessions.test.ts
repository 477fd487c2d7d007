// Files ⇄ sessions in the real extension host: a session written into pi's
// folder for the workspace (write then edit of one file, a bash move of
// another) — which sessions touched a file, and the diff editor on what the
// session did to it. Read-only, so it runs in Restricted Mode too.
import * as assert from "node:assert/strict";
import { appendFileSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { TOUCH_STORE_VERSION } from "../../../src/core/file-history/touch-store-file";
import { activateExtension } from "./extension-under-test";
import { extensionInternals, piDir, run, waitFor, workspaceDir } from "./helpers";

const SESSION_ID = "0f1e2d3c-4b5a-4968-8776-65544332211f";

interface Row {
  sessionPath: string;
  entryId: string;
  ops: string;
  tool: string;
  command?: string;
}

function line(entry: Record<string, unknown>): string {
  return JSON.stringify(entry);
}

function sessionText(cwd: string): string {
  let n = 0;
  let parent: string | null = null;
  const entry = (body: Record<string, unknown>): string => {
    n++;
    const id = `f${n.toString().padStart(7, "0")}`;
    const text = line({ type: "message", id, parentId: parent, timestamp: new Date(Date.UTC(2026, 0, 20, 10, n)).toISOString(), message: body });
    parent = id;
    return text;
  };
  const assistant = (id: string, name: string, args: Record<string, unknown>) =>
    entry({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }], provider: "test", model: "test", api: "openai-completions", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "toolUse", timestamp: n });
  const result = (id: string, name: string) => entry({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text: "ok" }], isError: false, timestamp: n });
  return [
    line({ type: "session", version: 3, id: SESSION_ID, timestamp: "2026-01-20T10:00:00.000Z", cwd }),
    entry({ role: "user", content: [{ type: "text", text: "Create changed.ts, then fix it" }], timestamp: 1 }),
    assistant("c1", "write", { path: "changed.ts", content: "export const a = 1;\nexport const b = 2;\n" }),
    result("c1", "write"),
    assistant("c2", "edit", { path: "changed.ts", edits: [{ oldText: "export const b = 2;", newText: "export const b = 3;" }] }),
    result("c2", "edit"),
    assistant("c3", "bash", { command: "cat README.md && mv moved-from.txt moved-to.txt" }),
    result("c3", "bash"),
  ].join("\n") + "\n";
}

suite("Files ⇄ sessions @restricted", () => {
  let sessionPath: string;
  let changed: string;

  suiteSetup(async () => {
    await activateExtension();
    mkdirSync(piDir(), { recursive: true });
    sessionPath = join(piDir(), `2026-01-20T10-00-00-000Z_${SESSION_ID}.jsonl`);
    writeFileSync(sessionPath, sessionText(workspaceDir()));
    changed = join(workspaceDir(), "changed.ts");
    writeFileSync(changed, "export const a = 1;\nexport const b = 3;\n");
    await vscode.commands.executeCommand("piSessions.refresh");
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(sessionPath, { force: true });
    rmSync(changed, { force: true });
    await vscode.commands.executeCommand("piSessions.refresh");
  });

  test("Sessions That Touched This File lists the session's write and edit, newest first, and bash's read and move", async () => {
    const rows = await waitFor("rows", async () => {
      const result = await run<{ rows: Row[] }>("piSessions.sessionsTouchingFile", { path: changed, list: true });
      return result.ok && result.value!.rows.length > 0 ? result.value!.rows : undefined;
    });
    assert.deepEqual(rows.map((r) => [r.sessionPath, r.tool, r.ops]), [
      [sessionPath, "edit", "E"],
      [sessionPath, "write", "W"],
    ]);
    const readme = await run<{ rows: Row[] }>("piSessions.sessionsTouchingFile", { path: join(workspaceDir(), "README.md"), list: true });
    assert.deepEqual(readme.value!.rows.filter((r) => r.sessionPath === sessionPath).map((r) => [r.tool, r.ops, r.command]), [
      ["bash", "R", "cat README.md && mv moved-from.txt moved-to.txt"],
    ]);
    const moved = await run<{ rows: Row[] }>("piSessions.sessionsTouchingFile", { path: join(workspaceDir(), "moved-to.txt"), list: true });
    assert.deepEqual(moved.value!.rows.map((r) => r.ops), ["M"]);
  });

  test("Session Changes to This File opens the diff editor: empty before the write, the edited content after", async () => {
    const result = await run<{ steps: number; beforeKnown: boolean; afterKnown: boolean; opened: string }>("piSessions.sessionChangesToFile", { path: changed, sessionPath, step: "all" });
    assert.equal(result.ok, true, result.message);
    assert.deepEqual(result.value, { sessionPath, steps: 2, beforeKnown: true, afterKnown: true, opened: "all", source: "session" });
    const input = await waitFor("a diff tab", () => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab?.input instanceof vscode.TabInputTextDiff ? tab.input : undefined;
    });
    assert.equal(input.original.scheme, "pi-sessions-change");
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), "");
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), "export const a = 1;\nexport const b = 3;\n");
  });

  test("All changes of this session shows the session's edits when the file on disk no longer holds its result (reverted, or something else)", async () => {
    // A session that edited a file it never wrote whole; the file is then reverted, then replaced.
    const editedId = "0f1e2d3c-4b5a-4968-8776-65544332212f";
    const editedSession = join(piDir(), `2026-01-21T10-00-00-000Z_${editedId}.jsonl`);
    const target = join(workspaceDir(), "reverted.ts");
    const original = "export function greet() {\n  return 'hi';\n}\n";
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    writeFileSync(editedSession, [
      line({ type: "session", version: 3, id: editedId, timestamp: "2026-01-21T10:00:00.000Z", cwd: workspaceDir() }),
      line({ type: "message", id: "g0000001", parentId: null, timestamp: "2026-01-21T10:00:01.000Z", message: { role: "user", content: "say hello", timestamp: 1 } }),
      line({ type: "message", id: "g0000002", parentId: "g0000001", timestamp: "2026-01-21T10:00:02.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "reverted.ts", edits: [{ oldText: "return 'hi';", newText: "return 'hello';" }] } }], provider: "test", model: "test", api: "openai-completions", usage, stopReason: "toolUse", timestamp: 2 } }),
      line({ type: "message", id: "g0000003", parentId: "g0000002", timestamp: "2026-01-21T10:00:03.000Z", message: { role: "toolResult", toolCallId: "e1", toolName: "edit", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 3 } }),
    ].join("\n") + "\n");
    const diffTexts = async () => {
      const input = await waitFor("a diff tab", () => {
        const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
        return tab?.input instanceof vscode.TabInputTextDiff && tab.label.startsWith("reverted.ts") ? tab.input : undefined;
      });
      const texts = [(await vscode.workspace.openTextDocument(input.original)).getText(), (await vscode.workspace.openTextDocument(input.modified)).getText()];
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      return texts;
    };
    try {
      writeFileSync(target, original);
      const reverted = await run<{ source: string }>("piSessions.sessionChangesToFile", { path: target, sessionPath: editedSession, step: "all" });
      assert.equal(reverted.ok, true, reverted.message);
      assert.equal(reverted.value!.source, "disk-before");
      assert.deepEqual(await diffTexts(), [original, original.replace("'hi'", "'hello'")]);

      writeFileSync(target, "// rewritten since\n");
      const elsewhere = await run<{ source: string }>("piSessions.sessionChangesToFile", { path: target, sessionPath: editedSession, step: "all" });
      assert.equal(elsewhere.value!.source, "changes");
      const [before, after] = await diffTexts();
      assert.match(before!, /return 'hi';/);
      assert.match(after!, /return 'hello';/);
      assert.match(after!, /never seen/, "the view says what the session does not hold");
      assert.doesNotMatch(after!, /rewritten since/, "today's file is not shown as the session's result");
    } finally {
      rmSync(editedSession, { force: true });
      rmSync(target, { force: true });
    }
  });

  test("one change on its own: the edit's before and after", async () => {
    const result = await run<{ opened: string }>("piSessions.sessionChangesToFile", { path: changed, sessionPath, step: 1 });
    assert.equal(result.ok, true, result.message);
    assert.equal(result.value!.opened, "step");
    const input = await waitFor("the edit's diff tab", () => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab?.input instanceof vscode.TabInputTextDiff && tab.label.includes("edit") ? tab.input : undefined;
    });
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), "export const a = 1;\nexport const b = 2;\n");
    assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), "export const a = 1;\nexport const b = 3;\n");
  });

  test("a file no session changed: says so, opens nothing", async () => {
    const result = await run("piSessions.sessionChangesToFile", { path: join(workspaceDir(), "nobody-touched-this.ts"), step: "all" });
    assert.equal(result.ok, false);
    assert.equal(result.reason, "not-applicable");
  });

  test("the touches are kept in the extension's storage, and a pi write appended later shows up", async () => {
    const { services } = await extensionInternals();
    const storeFile = join(services.context.globalStorageUri.fsPath, "catalogue", `file-touches-v${TOUCH_STORE_VERSION}.json`);
    await run("piSessions.sessionsTouchingFile", { path: changed, list: true });
    const recordOf = () => (JSON.parse(readFileSync(storeFile, "utf8")) as { records: { path: string; key: { size: number } }[] }).records.find((r) => r.path === sessionPath);
    assert.equal(recordOf()?.key.size, statSync(sessionPath).size);
    const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
    const appended = [
      line({ type: "message", id: "f0000100", parentId: "f0000007", timestamp: "2026-01-20T11:00:00.000Z", message: { role: "assistant", content: [{ type: "toolCall", id: "c9", name: "edit", arguments: { path: "changed.ts", edits: [{ oldText: "3", newText: "4" }] } }], provider: "test", model: "test", api: "openai-completions", usage, stopReason: "toolUse", timestamp: 9 } }),
      line({ type: "message", id: "f0000101", parentId: "f0000100", timestamp: "2026-01-20T11:00:01.000Z", message: { role: "toolResult", toolCallId: "c9", toolName: "edit", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 10 } }),
    ];
    try {
      appendFileSync(sessionPath, `${appended.join("\n")}\n`);
      const rows = await run<{ rows: Row[] }>("piSessions.sessionsTouchingFile", { path: changed, list: true });
      assert.deepEqual(rows.value!.rows.map((r) => [r.entryId, r.ops]), [
        ["f0000100", "E"],
        ["f0000004", "E"],
        ["f0000002", "W"],
      ]);
      assert.equal(recordOf()?.key.size, statSync(sessionPath).size);
    } finally {
      writeFileSync(sessionPath, sessionText(workspaceDir()));
    }
  });
});
