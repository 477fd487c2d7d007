// The summary panel as a person sees it in a real browser (code-server +
// Chromium): opened by piSessions.openSummary (bound to a key with its
// arguments, since the command is hidden from the palette), the webview's
// header, rendered summary and files-touched manifest; a row click opening
// the file's tab and marking the row; the modal question for a file outside
// the workspace; a reload restoring the panel; screenshots in light, dark and
// high-contrast themes. Compact Session from the palette (preview, edit,
// apply) is in summary-panel-compact.test.ts.
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { OUR_MODEL, PANEL_SESSION_IDS } from "../summary-panel-session";
import { workbench } from "./context";
import { editorTab, fileRow, inSummaryFrame, placePanelSession, STEP_MS, summaryFrame, waitForClass } from "./summary-panel-page";
import { ALL_THEMES } from "./workbench";

const OPEN_SUMMARY_KEY = "ctrl+alt+shift+f9";

suite("workbench: the summary panel", () => {
  let session: { path: string; outsideFile: string };
  const keybindingsPath = (): string => join(workbench().paths.userDataDir, "User", "keybindings.json");

  suiteSetup(async () => {
    const wb = workbench();
    session = placePanelSession(wb, "view", false);
    writeFileSync(
      keybindingsPath(),
      JSON.stringify([{ key: OPEN_SUMMARY_KEY, command: "piSessions.openSummary", args: { sessionPath: session.path, entryId: PANEL_SESSION_IDS.ourCompaction } }], null, 2),
    );
    // code-server reads the user files when the window loads.
    await wb.page.reload();
    await wb.ready();
  });

  suiteTeardown(async () => {
    const wb = workbench();
    rmSync(keybindingsPath(), { force: true });
    rmSync(session.path, { force: true });
    await wb.runCommand("View: Close All Editors");
  });

  async function openPanel(): Promise<Frame> {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.page.keyboard.press("Control+Alt+Shift+F9");
    return summaryFrame(wb);
  }

  test("piSessions.openSummary opens the panel: header facts, the rendered summary, the manifest", async () => {
    const frame = await openPanel();
    assert.equal((await frame.locator("h1").textContent())?.trim(), "Compaction summary");
    assert.equal((await frame.locator(".tokens").textContent())?.trim(), "4,200 before");
    assert.equal((await frame.locator(".model").textContent())?.trim(), OUR_MODEL);
    assert.equal((await frame.locator(".session-name").textContent())?.trim(), "Summary panel view");
    const links = (await frame.locator(".entry-link").allTextContents()).map((text) => text.replace("Reveal entry ", "").trim());
    assert.deepEqual(links, [PANEL_SESSION_IDS.u2, PANEL_SESSION_IDS.ourCompaction]);
    // The summary is rendered markdown: its "##" sections are headings (h3 under the panel's h2), its done item a checked box.
    const headings = (await frame.locator(".summary-view .markdown-body h3").allTextContents()).map((text) => text.trim());
    assert.deepEqual(headings, ["Goal", "Done", "Next Steps"]);
    assert.equal(await frame.locator(".summary-view .markdown-body input[type=checkbox]").isChecked(), true);
    const paths = (await frame.locator("tr.file-row .display-path").allTextContents()).map((text) => text.trim());
    assert.deepEqual(paths, [session.outsideFile, "old.ts", "hello.ts"]);
    assert.equal(await workbench().page.locator(".tabs-container .tab", { hasText: "Compaction summary" }).count(), 1, "an editor tab titled Compaction summary");
  });

  test("the Kept-from link reveals that entry in the Entries view", async () => {
    const frame = await openPanel();
    await frame.locator(".entry-link", { hasText: PANEL_SESSION_IDS.u2 }).click();
    const row = workbench().treeRow("Entries", "Now explain it.").first();
    await row.waitFor({ timeout: STEP_MS });
    await workbench().page.waitForFunction(
      (element) => (element as Element).getAttribute("aria-selected") === "true",
      await row.elementHandle({ timeout: STEP_MS }),
      { timeout: STEP_MS },
    );
  });

  test("a deleted file's row is struck through and a click opens nothing", async () => {
    const frame = await openPanel();
    const row = fileRow(frame, "old.ts");
    assert.match((await row.getAttribute("class")) ?? "", /is-deleted/);
    assert.equal(await row.locator(".status-deleted").isVisible(), true);
    const decoration = await row.locator(".display-path").evaluate((element) => getComputedStyle(element).textDecorationLine);
    assert.match(decoration, /line-through/);
    // force: the row is aria-disabled (playwright would refuse); a person can still click it.
    await row.click({ force: true });
    await workbench().page.waitForTimeout(1000);
    assert.equal(await editorTab(workbench(), "old.ts").count(), 0);
  });

  test("clicking a row opens the file in an editor tab beside the panel and marks the row open", async () => {
    const frame = await openPanel();
    const row = fileRow(frame, "hello.ts");
    assert.doesNotMatch((await row.getAttribute("class")) ?? "", /is-open/);
    await row.click();
    await editorTab(workbench(), "hello.ts").waitFor({ timeout: STEP_MS });
    await waitForClass(frame, row, "is-open");
    assert.equal(await row.locator(".status-open").isVisible(), true);
    // Opened beside the panel: two editor groups, the panel still showing.
    assert.equal(await workbench().page.locator(".editor-group-container").count(), 2);
    assert.equal(await frame.locator("header.panel-header").isVisible(), true);
  });

  test("a row outside the workspace asks in a modal dialog; Open opens the file", async () => {
    const frame = await openPanel();
    const row = fileRow(frame, session.outsideFile);
    assert.equal(await row.locator(".status-outside").isVisible(), true);
    await row.click();
    const dialog = workbench().page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: STEP_MS });
    assert.match((await dialog.textContent()) ?? "", /outside the workspace/);
    await dialog.locator(".monaco-button", { hasText: /^Open$/ }).click();
    await editorTab(workbench(), "notes.txt").waitFor({ timeout: STEP_MS });
    await waitForClass(frame, row, "is-open");
  });

  test("closing the file's tab unmarks its row", async () => {
    const frame = await openPanel();
    const row = fileRow(frame, "hello.ts");
    await row.click();
    await editorTab(workbench(), "hello.ts").waitFor({ timeout: STEP_MS });
    await waitForClass(frame, row, "is-open");
    // A middle click closes a tab.
    await editorTab(workbench(), "hello.ts").click({ button: "middle" });
    await editorTab(workbench(), "hello.ts").waitFor({ state: "detached", timeout: STEP_MS });
    await waitForClass(frame, row, "is-open", false);
  });

  test("reloading the window restores the panel, its summary and its open-file marks", async () => {
    const w = workbench();
    const frame = await openPanel();
    await fileRow(frame, "hello.ts").click();
    await editorTab(w, "hello.ts").waitFor({ timeout: STEP_MS });
    await waitForClass(frame, fileRow(frame, "hello.ts"), "is-open");

    await w.runCommand("Developer: Reload Window");
    await w.ready();
    await inSummaryFrame(w, async (restored) => {
      assert.equal((await restored.locator("h1").textContent())?.trim(), "Compaction summary");
      const headings = (await restored.locator(".summary-view .markdown-body h3").allTextContents()).map((text) => text.trim());
      assert.deepEqual(headings, ["Goal", "Done", "Next Steps"]);
      await editorTab(w, "hello.ts").waitFor({ timeout: STEP_MS });
      await waitForClass(restored, fileRow(restored, "hello.ts"), "is-open");
    });
    assert.match(await w.extensionLog(), /summary panel restored \(compaction, view\)/);
  });

  test("screenshots in light, dark and high-contrast themes", async () => {
    const w = workbench();
    const shots: string[] = [];
    await w.withThemes(ALL_THEMES, async (theme) => {
      const frame = await openPanel();
      await fileRow(frame, "hello.ts").click();
      await editorTab(w, "hello.ts").waitFor({ timeout: STEP_MS });
      await waitForClass(frame, fileRow(frame, "hello.ts"), "is-open");
      assert.match((await frame.locator("body").getAttribute("class")) ?? "", theme.bodyClass);
      shots.push(await w.screenshot(`readme/summary-panel-${theme.name}`));
    });
    for (const path of shots) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    assert.equal(new Set(shots.map((path) => readFileSync(path).toString("base64"))).size, 3, "three different pictures");
  });
});
