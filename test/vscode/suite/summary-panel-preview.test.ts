// Preview before apply in a real extension host. First the controller's seam
// as the runners use it (preview → the text on Apply, null on Discard or
// close; showResult; applyFailed), then the extension's own Compact Session
// command with the digest summariser (no model needed) and the confirm step
// on: Apply writes the edited text through the core's safe append, Discard
// writes nothing.
import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import { openSession } from "../../../src/core/session/open/open-session";
import type { SummaryPanelController } from "../../../src/extension/summary-panel/index";
import { closeAllEditors, summaryPanelController, waitFor, writePanelSession, type PanelSession } from "./summary-panel-fixture";

const trusted = process.env.PI_SESSIONS_TEST_TRUSTED !== "0";

function proposedEntry(fixture: PanelSession): Record<string, unknown> {
  return {
    type: "compaction",
    id: "feed0001",
    parentId: fixture.ids.ourCompaction,
    timestamp: "2026-01-10T09:05:00.000Z",
    summary: "## Goal\nProposed by the runner.",
    firstKeptEntryId: fixture.ids.u2,
    tokensBefore: 4300,
    details: { model: "digest", piSessions: { version: 1, digest: true, filesTouched: [] } },
  };
}

async function pageLoaded(panel: SummaryPanelController): Promise<void> {
  await waitFor("the panel's page to load and ask for its state", () => panel.testing.panels().at(-1)?.routed.includes('webview "ready": init'), 20_000);
}

suite("summary panel @restricted: preview before apply (the controller's seam)", () => {
  let panel: SummaryPanelController;
  let fixture: PanelSession;

  suiteSetup(async () => {
    panel = await summaryPanelController();
  });
  setup(async () => {
    await closeAllEditors();
    fixture = writePanelSession();
  });
  teardown(closeAllEditors);

  /** The answer stays wrapped: returning the bare promise from an async function would wait for it. */
  async function startPreview(): Promise<{ answer: Promise<string | null> }> {
    const session = await openSession(fixture.path);
    const answer = panel.preview({ session, kind: "compaction", entry: proposedEntry(fixture), tokensBefore: 4300, tokensAfter: 900, model: "digest" });
    await pageLoaded(panel);
    return { answer };
  }

  test("the proposal is shown as an editable preview; read-only in Restricted Mode", async () => {
    const { answer } = await startPreview();
    const shown = panel.testing.panels().at(-1)!;
    assert.equal(shown.webviewPanel.viewType, "piSessions.summary");
    assert.equal(shown.webviewPanel.title, "Preview: compaction summary");
    assert.equal(shown.phase, "awaiting");
    assert.deepEqual(
      [shown.state.mode, shown.state.entryId, shown.state.summary, shown.state.model, shown.state.tokensBefore, shown.state.tokensAfter, shown.state.readOnly],
      ["preview", undefined, "## Goal\nProposed by the runner.", "digest", 4300, 900, !trusted],
    );
    if (!trusted) assert.deepEqual(await panel.testing.post({ type: "apply", text: "x" }), { done: false, reason: "nothing to apply" });
    await panel.testing.post({ type: "discard" });
    assert.equal(await answer, null);
  });

  test("Apply resolves with the edited text; a second Apply and a Discard after it are refused", async function () {
    if (!trusted) this.skip();
    const { answer } = await startPreview();
    assert.deepEqual(await panel.testing.post({ type: "apply", text: "## Goal\nEdited." }), { done: true, action: "apply" });
    assert.equal(await answer, "## Goal\nEdited.");
    assert.equal(panel.testing.panels().at(-1)!.phase, "applying");
    assert.deepEqual(await panel.testing.post({ type: "apply", text: "again" }), { done: false, reason: "nothing waits for this preview" });
    assert.deepEqual(await panel.testing.post({ type: "discard" }), { done: false, reason: "already applied" });
  });

  test("Discard resolves null and closes the preview", async () => {
    const { answer } = await startPreview();
    assert.deepEqual(await panel.testing.post({ type: "discard" }), { done: true, action: "discard" });
    assert.equal(await answer, null);
    await waitFor("the preview closed", () => panel.testing.panels().length === 0);
  });

  test("closing the preview resolves null", async () => {
    const { answer } = await startPreview();
    panel.testing.panels().at(-1)!.webviewPanel.dispose();
    assert.equal(await answer, null);
  });

  test("after Apply, showResult turns the same panel into a view of the written entry", async function () {
    if (!trusted) this.skip();
    const { answer } = await startPreview();
    await panel.testing.post({ type: "apply", text: "## Goal\nEdited." });
    await answer;
    const session = await openSession(fixture.path);
    await panel.showResult(session, { ...proposedEntry(fixture), id: "feed0002", summary: "## Goal\nEdited." }, { tokensBefore: 4300, tokensAfter: 950, model: "digest" });
    const shown = panel.testing.panels();
    assert.equal(shown.length, 1);
    assert.deepEqual([shown[0]!.phase, shown[0]!.state.mode, shown[0]!.state.entryId, shown[0]!.state.summary, shown[0]!.state.tokensAfter], ["view", "view", "feed0002", "## Goal\nEdited.", 950]);
    assert.equal(shown[0]!.webviewPanel.title, "Compaction summary");
  });

  test("a write that fails after Apply leaves the preview read-only with a notice", async function () {
    if (!trusted) this.skip();
    const { answer } = await startPreview();
    await panel.testing.post({ type: "apply", text: "## Goal\nEdited." });
    await answer;
    panel.applyFailed(fixture.path, "the session changed on disk");
    const shown = panel.testing.panels().at(-1)!;
    assert.deepEqual([shown.phase, shown.state.readOnly], ["detached", true]);
    assert.match(shown.state.notice ?? "", /Nothing was written/);
  });

  test("showResult without a preview opens a view of the entry", async () => {
    const session = await openSession(fixture.path);
    await panel.showResult(session, session.entry(fixture.ids.ourCompaction)!, { model: "loopback/summarizer", tokensAfter: 1234 });
    const shown = panel.testing.panels().at(-1)!;
    assert.deepEqual([shown.state.mode, shown.state.entryId, shown.state.tokensAfter], ["view", fixture.ids.ourCompaction, 1234]);
  });
});

suite("summary panel: Compact Session with the preview step (the extension's own command)", () => {
  let panel: SummaryPanelController;
  const config = () => vscode.workspace.getConfiguration("piSessions");

  suiteSetup(async function () {
    if (!trusted) this.skip();
    panel = await summaryPanelController();
    // The fixture is tiny: keep almost nothing so there is something to compact.
    await config().update("compaction.keepRecentTokens", 1, vscode.ConfigurationTarget.Global);
  });
  suiteTeardown(async () => {
    if (trusted) await config().update("compaction.keepRecentTokens", undefined, vscode.ConfigurationTarget.Global);
  });
  setup(closeAllEditors);
  teardown(closeAllEditors);

  /** Starts Compact Session; resolves once its preview's page has loaded (fails if the command ends first). */
  async function compact(fixture: PanelSession): Promise<{ run: Promise<unknown> }> {
    const run = Promise.resolve(vscode.commands.executeCommand("piSessions.compactSession", { sessionPath: fixture.path, digest: true, focus: "", confirm: true }));
    const endedFirst = run.then((result) => {
      throw new Error(`Compact Session ended before showing a preview: ${JSON.stringify(result)}`);
    });
    await Promise.race([pageLoaded(panel), endedFirst]);
    return { run };
  }

  test("Apply writes the edited text (appended, nothing before it changed) and the panel views the written entry", async () => {
    const fixture = writePanelSession({ withTail: true });
    const before = readFileSync(fixture.path, "utf8");
    const { run } = await compact(fixture);
    assert.equal(panel.testing.panels().at(-1)!.state.mode, "preview");
    const edited = "## Goal\nEdited in the panel before applying.";
    assert.deepEqual(await panel.testing.post({ type: "apply", text: edited }), { done: true, action: "apply" });
    await run;
    const after = readFileSync(fixture.path, "utf8");
    assert.ok(after.length > before.length && after.startsWith(before), "one entry appended after the old bytes");
    const written = JSON.parse(after.slice(before.length)) as { id: string; type: string; summary: string; parentId: string };
    assert.deepEqual([written.type, written.summary, written.parentId], ["compaction", edited, "a5000005"]);
    const shown = await waitFor("the panel to view the written entry", () => {
      const last = panel.testing.panels().at(-1);
      return last?.state.mode === "view" ? last : undefined;
    });
    assert.equal(shown.state.entryId, written.id);
    assert.equal(shown.state.summary, edited);
    assert.equal(panel.testing.panels().length, 1, "the preview panel itself shows the result");
  });

  test("Discard writes nothing", async () => {
    const fixture = writePanelSession({ withTail: true });
    const before = readFileSync(fixture.path, "utf8");
    const { run } = await compact(fixture);
    await panel.testing.post({ type: "discard" });
    await run;
    assert.equal(readFileSync(fixture.path, "utf8"), before);
  });
});
