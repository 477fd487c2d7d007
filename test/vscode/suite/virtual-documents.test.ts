// Every virtual document the extension opens is read-only (a content provider's),
// never unsaved, and never feeds the Problems panel: a file's content before/after a session's
// changes (whole, one edit's replaced text, each change on its own) and Show
// Context's markdown. TypeScript content with type and syntax errors is opened
// the same way as an Untitled document first: the TypeScript checker reports
// errors there, so it is running; none may appear on ours.
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { activateExtension } from "./extension-under-test";
import { piDir, run, waitFor, workspaceDir } from "./helpers";

const SESSION_ID = "0f1e2d3c-4b5a-4968-8776-6554433221af";
const BROKEN = 'import { nothing } from "./not-there";\nconst n: number = "text";\nexport function f() {\n  return n + nothing;\n}\n';
const EDITED = BROKEN.replace('"text"', '"still text"');

function sessionText(cwd: string): string {
  const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  const line = (id: string, parentId: string | null, message: Record<string, unknown>) => JSON.stringify({ type: "message", id, parentId, timestamp: `2026-01-22T10:00:0${id.at(-1)}.000Z`, message });
  return [
    JSON.stringify({ type: "session", version: 3, id: SESSION_ID, timestamp: "2026-01-22T10:00:00.000Z", cwd }),
    line("h0000001", null, { role: "user", content: "change the number", timestamp: 1 }),
    line("h0000002", "h0000001", { role: "assistant", content: [{ type: "toolCall", id: "e1", name: "edit", arguments: { path: "broken.ts", edits: [{ oldText: 'const n: number = "text";\nexport', newText: 'const n: number = "still text";\nexport' }] } }], provider: "test", model: "test", api: "openai-completions", usage, stopReason: "toolUse", timestamp: 2 }),
    line("h0000003", "h0000002", { role: "toolResult", toolCallId: "e1", toolName: "edit", content: [{ type: "text", text: "ok" }], isError: false, timestamp: 3 }),
  ].join("\n") + "\n";
}

const OURS = new Set(["pi-sessions-change", "pi-sessions-context"]);

function diffTab(): vscode.TabInputTextDiff | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  return input instanceof vscode.TabInputTextDiff ? input : undefined;
}

// Trusted only: Restricted Mode runs no TypeScript checker at all, so it could not show one is kept away.
suite("Virtual documents: read-only, never unsaved, no diagnostics", () => {
  const sessionPath = () => join(piDir(), `2026-01-22T10-00-00-000Z_${SESSION_ID}.jsonl`);
  const target = () => join(workspaceDir(), "broken.ts");

  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    await activateExtension();
    mkdirSync(piDir(), { recursive: true });
    writeFileSync(sessionPath(), sessionText(workspaceDir()));
  });

  suiteTeardown(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(sessionPath(), { force: true });
    rmSync(target(), { force: true });
  });

  test("each kind the extension opens: no diagnostics, not dirty, not Untitled", async function () {
    this.timeout(120_000);
    const opened: vscode.Uri[] = [];
    const open = async (what: string, command: string, args: Record<string, unknown>) => {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      const result = await run(command, args);
      assert.equal(result.ok, true, `${what}: ${result.message}`);
      if (command === "piSessions.showContext") {
        const doc = (result.value as { document: vscode.TextDocument }).document;
        opened.push(doc.uri);
        return;
      }
      const input = await waitFor(`${what}: a diff tab`, diffTab);
      opened.push(input.original, input.modified);
    };
    // The file as the session left it: the whole file, coloured as TypeScript.
    writeFileSync(target(), EDITED);
    await open("whole file", "piSessions.sessionChangesToFile", { path: target(), sessionPath: sessionPath(), step: "all" });
    // Today's file neither: each change on its own, and one edit's replaced text only (fragments).
    writeFileSync(target(), "// unrelated\n");
    await open("each change", "piSessions.sessionChangesToFile", { path: target(), sessionPath: sessionPath(), step: "all" });
    await open("one edit's fragment", "piSessions.sessionChangesToFile", { path: target(), sessionPath: sessionPath(), step: 0 });
    await open("Show Context", "piSessions.showContext", { sessionPath: sessionPath() });

    // All kept open (each in its own tab), as a user leaves them while the checkers run.
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    const documents: vscode.TextDocument[] = [];
    for (const uri of opened) {
      const document = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(document, { preview: false });
      documents.push(document);
    }
    const languages = documents.map((d) => `${d.uri.scheme}:${d.languageId}`);
    assert.ok(documents.every((d) => OURS.has(d.uri.scheme)), languages.join(", "));
    assert.ok(languages.includes("pi-sessions-change:typescript"), `whole files keep their language: ${languages.join(", ")}`);
    assert.ok(languages.includes("pi-sessions-context:markdown"), languages.join(", "));
    for (const d of documents) {
      assert.equal(d.isUntitled, false, d.uri.toString());
      // Untitled content (Show Context before) was dirty from the start: closing it asked to save.
      assert.equal(d.isDirty, false, d.uri.toString());
    }

    // The same TypeScript, Untitled: the checker reports its errors (it runs here).
    const control = await vscode.workspace.openTextDocument({ language: "typescript", content: BROKEN });
    await vscode.window.showTextDocument(control, { preview: false, preserveFocus: true });
    await waitFor("TypeScript's errors on an Untitled copy", () => vscode.languages.getDiagnostics(control.uri).length > 0, 90_000);
    // Ours stay open while the checker settles: anything it had to say about them is in by now.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const flagged = vscode.languages.getDiagnostics().filter(([uri, list]) => OURS.has(uri.scheme) && list.length > 0);
    assert.deepEqual(flagged.map(([uri, list]) => `${uri.toString()}: ${list.map((d) => d.message).join("; ")}`), []);
    await vscode.window.showTextDocument(control);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
});
