// The summary panel in a real extension host: opening it on compaction
// entries (the extension's own command and API), the webview page loading
// under its CSP and asking for its state, and the files-touched manifest's
// rules for opening files. Messages are driven through the controller's test
// hook, which goes through the same validated router as the page's messages.
import * as assert from "node:assert/strict";
import { join } from "node:path";
import * as vscode from "vscode";
import type { SummaryPanelController } from "../../../src/extension/summary-panel/index";
import { openSession } from "../../../src/core/session/open/open-session";
import type { SummaryFile } from "../../../src/webview/protocol";
import { closeAllEditors, fileRow, OUR_MODEL, OUR_SUMMARY, summaryPanelController, waitFor, writePanelSession, type PanelSession } from "./summary-panel-fixture";
import { run } from "./helpers";

function webviewTabs(): vscode.TabInputWebview[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs.map((tab) => tab.input)).filter((input): input is vscode.TabInputWebview => input instanceof vscode.TabInputWebview);
}

function editorPaths(): string[] {
  return vscode.window.visibleTextEditors.map((editor) => editor.document.uri.fsPath);
}

suite("summary panel @restricted: viewing a summary and its files", () => {
  let panel: SummaryPanelController;
  let fixture: PanelSession;

  suiteSetup(async () => {
    panel = await summaryPanelController();
    fixture = writePanelSession();
  });

  setup(closeAllEditors);
  teardown(async () => {
    panel.testing.setConfirmOutside(undefined);
    await closeAllEditors();
  });

  async function showOurCompaction(): Promise<void> {
    await vscode.commands.executeCommand("piSessions.openSummary", fixture.path, fixture.ids.ourCompaction);
    await waitFor("the panel's page to load and ask for its state", () => panel.testing.panels().at(-1)?.routed.includes('webview "ready": init'));
  }

  test("piSessions.openSummary opens a webview panel of view type piSessions.summary whose page loads and asks for its state", async () => {
    await showOurCompaction();
    const [shown] = panel.testing.panels();
    assert.equal(panel.testing.panels().length, 1);
    assert.equal(shown!.webviewPanel.viewType, "piSessions.summary");
    assert.equal(shown!.webviewPanel.title, "Compaction summary");
    assert.equal(shown!.webviewPanel.webview.options.enableScripts, true);
    const roots = (shown!.webviewPanel.webview.options.localResourceRoots ?? []).map((uri) => uri.path.split("/").pop());
    assert.deepEqual(roots, ["dist", "media"]);
    assert.ok(webviewTabs().some((input) => input.viewType.endsWith("piSessions.summary")), "a webview tab of our view type is open");
    assert.match(shown!.webviewPanel.webview.html, /Content-Security-Policy/);
  });

  test("the state carries the entry's facts and the recorded manifest with deleted / outside marks", async () => {
    await showOurCompaction();
    const state = panel.testing.panels()[0]!.state;
    assert.equal(state.kind, "compaction");
    assert.equal(state.mode, "view");
    assert.equal(state.entryId, fixture.ids.ourCompaction);
    assert.equal(state.firstKeptEntryId, fixture.ids.u2);
    assert.equal(state.tokensBefore, 4200);
    assert.equal(state.model, OUR_MODEL);
    assert.equal(state.summary, OUR_SUMMARY);
    assert.equal(state.readOnly, process.env.PI_SESSIONS_TEST_TRUSTED === "0");
    assert.deepEqual(
      state.files.map((f) => [f.displayPath, f.ops, f.deleted, f.outside]),
      [
        [fixture.outsideFile, "R", false, true],
        ["old.ts", "D", true, false],
        ["hello.ts", "W", false, false],
      ],
    );
  });

  test("a compaction pi wrote (no recorded files): the manifest is recomputed with the bash parser of the bundle", async () => {
    const session = await openSession(fixture.path);
    await panel.showEntry(session, fixture.ids.piCompaction);
    const state = panel.testing.panels().at(-1)!.state;
    assert.equal(state.model, "not recorded");
    // write hello.ts → W; `rm old.ts` (bash, parsed by tree-sitter) → D; read outside → R.
    assert.deepEqual(
      state.files.map((f) => [f.displayPath, f.ops, f.deleted, f.outside]),
      [
        [fixture.outsideFile, "R", false, true],
        ["old.ts", "D", true, false],
        ["hello.ts", "W", false, false],
      ],
    );
  });

  test("showing the same entry again reuses its panel; another entry gets its own", async () => {
    await showOurCompaction();
    await showOurCompaction();
    assert.equal(panel.testing.panels().length, 1);
    await vscode.commands.executeCommand("piSessions.openSummary", { sessionPath: fixture.path, entryId: fixture.ids.piCompaction });
    assert.equal(panel.testing.panels().length, 2);
  });

  test("showEntry refuses an entry that is not a summary", async () => {
    const session = await openSession(fixture.path);
    await assert.rejects(panel.showEntry(session, fixture.ids.u1), /not a compaction or branch summary/);
    assert.equal(panel.testing.panels().length, 0);
  });

  test("openFile opens a text editor for the file and the row is marked open, then unmarked when its tab closes", async () => {
    await showOurCompaction();
    const hello = join(fixture.workspace, "hello.ts");
    const result = await panel.testing.post({ type: "openFile", path: hello, preview: true });
    assert.deepEqual(result, { done: true, action: "openFile" });
    await waitFor("hello.ts in a visible editor", () => editorPaths().includes(hello));
    const opened = await waitFor("the hello.ts row marked open", () => (fileRow(panel.testing.panels()[0]!.state, "hello.ts").open ? true : undefined));
    assert.equal(opened, true);
    // The panel stays visible: the file opened in another editor group.
    const panelColumn = panel.testing.panels()[0]!.webviewPanel.viewColumn;
    const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.fsPath === hello)!;
    assert.notEqual(editor.viewColumn, panelColumn);

    await vscode.window.showTextDocument(editor.document, editor.viewColumn);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
    await waitFor("the hello.ts row unmarked", () => (!fileRow(panel.testing.panels()[0]!.state, "hello.ts").open ? true : undefined));
  });

  test("a file opened some other way is marked too (tab sync)", async () => {
    await showOurCompaction();
    const hello = join(fixture.workspace, "hello.ts");
    await vscode.window.showTextDocument(vscode.Uri.file(hello), { viewColumn: vscode.ViewColumn.Beside, preview: false });
    await waitFor("the hello.ts row marked open", () => (fileRow(panel.testing.panels()[0]!.state, "hello.ts").open ? true : undefined));
  });

  test("a deleted file's row asks for its last content; removed by bash only, the session never held it: nothing opens and the user is told why", async () => {
    await showOurCompaction();
    const oldTs = join(fixture.workspace, "old.ts");
    const result = await panel.testing.post({ type: "openFile", path: oldTs, preview: true });
    assert.deepEqual(result, { done: true, action: "showLastContent" });
    assert.deepEqual(editorPaths(), []);
    const direct = await run("_piSessions.showLastContent", { sessionPath: fixture.path, path: oldTs });
    assert.equal(direct.ok, false);
    assert.match(direct.message ?? "", /only touched it with bash, which does not record the file's content/);
  });

  test("a path that is not one of the panel's files opens nothing", async () => {
    await showOurCompaction();
    for (const path of [join(fixture.workspace, "README.md"), "/etc/passwd"]) {
      const result = await panel.testing.post({ type: "openFile", path, preview: true });
      assert.deepEqual(result, { done: false, reason: "not a file of this summary" });
    }
    const invalid = await panel.testing.post({ type: "openFile", path: join(fixture.workspace, "hello.ts") });
    assert.deepEqual(invalid, { done: false, reason: "invalid message" });
    assert.deepEqual(editorPaths(), []);
  });

  // The real question is a modal dialog in the workbench page, which code inside the extension
  // host cannot answer: it is replaced here (the workbench UI suite answers the real one).
  test("a file outside the workspace and the session cwd asks first: no opens nothing, yes opens it", async () => {
    await showOurCompaction();
    const asked: string[][] = [];
    let answer = false;
    panel.testing.setConfirmOutside(async (files: readonly SummaryFile[]) => {
      asked.push(files.map((file) => file.path));
      return answer;
    });
    const declined = await panel.testing.post({ type: "openFile", path: fixture.outsideFile, preview: true });
    assert.deepEqual(declined, { done: false, reason: "declined: outside the workspace" });
    assert.deepEqual(editorPaths(), []);
    answer = true;
    const accepted = await panel.testing.post({ type: "openFile", path: fixture.outsideFile, preview: false });
    assert.deepEqual(accepted, { done: true, action: "openFile" });
    await waitFor("notes.txt in a visible editor", () => editorPaths().includes(fixture.outsideFile));
    assert.deepEqual(asked, [[fixture.outsideFile], [fixture.outsideFile]]);
  });

  test("Open all modified opens the written file as a kept tab (the deleted one is not modified-and-present)", async () => {
    await showOurCompaction();
    const result = await panel.testing.post({ type: "openAllModified" });
    assert.deepEqual(result, { done: true, action: "openAllModified 1" });
    const hello = join(fixture.workspace, "hello.ts");
    await waitFor("hello.ts open", () => editorPaths().includes(hello));
    const tab = vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === hello);
    assert.equal(tab?.isPreview, false);
  });

  test("Copy as markdown puts the text on the clipboard", async () => {
    await showOurCompaction();
    await panel.testing.post({ type: "copyMarkdown", text: OUR_SUMMARY });
    assert.equal(await vscode.env.clipboard.readText(), OUR_SUMMARY);
  });

  test("revealEntry reaches the Entries view's reveal for the panel's own ids only", async () => {
    await showOurCompaction();
    assert.deepEqual(await panel.testing.post({ type: "revealEntry", entryId: fixture.ids.u2 }), { done: true, action: "revealEntry" });
    assert.deepEqual(await panel.testing.post({ type: "revealEntry", entryId: fixture.ids.a1 }), { done: false, reason: "not an entry of this summary" });
  });

  test("hidden behind another tab and shown again, the page (not kept alive) loads again and is sent the current state", async () => {
    await showOurCompaction();
    const shown = panel.testing.panels()[0]!;
    const readyCount = (): number => panel.testing.panels()[0]!.routed.filter((line) => line === 'webview "ready": init').length;
    assert.equal(readyCount(), 1);
    await vscode.window.showTextDocument(vscode.Uri.file(join(fixture.workspace, "README.md")), { viewColumn: shown.webviewPanel.viewColumn, preview: false });
    await waitFor("the panel hidden", () => !shown.webviewPanel.visible);
    // Marks change while the page is gone: it gets them with the state when it is back.
    await vscode.window.showTextDocument(vscode.Uri.file(join(fixture.workspace, "hello.ts")), { viewColumn: vscode.ViewColumn.Beside, preview: false });
    await waitFor("the hello.ts row marked open", () => (fileRow(panel.testing.panels()[0]!.state, "hello.ts").open ? true : undefined));
    shown.webviewPanel.reveal(shown.webviewPanel.viewColumn);
    await waitFor("the page to load again", () => readyCount() === 2);
  });

  test("closing the panel forgets it", async () => {
    await showOurCompaction();
    panel.testing.panels()[0]!.webviewPanel.dispose();
    await waitFor("no panel left", () => panel.testing.panels().length === 0);
  });
});
