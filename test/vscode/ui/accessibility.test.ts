// Accessibility of the webviews in the real browser: axe-core (the npm package,
// pinned, its source evaluated in each webview's frame by the test: nothing is
// fetched) over the reader, the summary panel and a compaction preview, in the
// light, dark and high-contrast themes — no serious or critical violation. And
// keyboard-only use: Tab reaches every manifest row and the reader's controls,
// Enter acts on them. The reader's session carries a pi 1.5 context edit (its
// badge) and a collapsed compaction summary (no empty box under it).
import * as assert from "node:assert/strict";
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir";
import { PANEL_SESSION_IDS } from "../summary-panel-session";
import { workbench } from "./context";
import { editorTab, fileRow, placePanelSession, STEP_MS, summaryFrame } from "./summary-panel-page";
import { ALL_THEMES, THEMES, WEBVIEWS, type Workbench } from "./workbench";
import { axeViolations } from "./axe";

const OPEN_SUMMARY_KEY = "ctrl+alt+shift+f8";
const READER_TITLE = "Summary panel a11y-reader";
const PREVIEW_TITLE = "Summary panel a11y-preview";

/** axe-core's serious and critical violations in the frame's document (every rule). */
async function axeProblems(frame: Frame): Promise<string[]> {
  return (await axeViolations(frame))
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id} (${v.help}): ${v.nodes.map((n) => `${n.target.join(" ")} — ${n.failureSummary ?? ""}`).join(" | ")}`);
}

function readerFrame(wb: Workbench): Promise<Frame> {
  return wb.webviewFrame(WEBVIEWS.reader);
}

/** What has the keyboard focus in the frame: tag, classes and text, short. */
async function focused(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "body";
    return `${el.tagName.toLowerCase()}.${Array.from(el.classList).join(".")} ${(el.textContent ?? "").trim().slice(0, 60)}`;
  });
}

/** Clicks `start` (plain text at the top, to put the keyboard in the webview), then presses Tab up to `max` times, collecting what gets the focus. */
async function tabThrough(wb: Workbench, frame: Frame, start: string, max: number): Promise<string[]> {
  await frame.locator(start).first().click();
  const seen: string[] = [];
  for (let i = 0; i < max; i++) {
    await wb.page.keyboard.press("Tab");
    seen.push(await focused(frame));
  }
  return seen;
}

suite("workbench: accessibility of the webviews (axe-core, keyboard)", () => {
  let server: ModelServer;
  let loopback: LoopbackAgentDir;
  let readerSession: { path: string };
  let previewSession: { path: string };
  let settingsBefore: string;
  const settingsPath = (): string => join(workbench().paths.userDataDir, "User", "settings.json");
  const keybindingsPath = (): string => join(workbench().paths.userDataDir, "User", "keybindings.json");

  suiteSetup(async () => {
    const wb = workbench();
    server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("## Goal\nGreet the world.\n\n## Next Steps\n1. Add a test") });
    loopback = await writeLoopbackAgentDir(server);
    for (const name of ["models.json", "auth.json"]) copyFileSync(join(loopback.agentDir, name), join(wb.paths.agentDir, name));
    readerSession = placePanelSession(wb, "a11y-reader", true);
    // pi 1.5 omits an earlier answer from the model's context: the reader marks it with a badge.
    const last = readFileSync(readerSession.path, "utf8").trimEnd().split("\n").at(-1)!;
    appendFileSync(
      readerSession.path,
      `${JSON.stringify({ type: "context_edit", id: "e0000001", parentId: (JSON.parse(last) as { id: string }).id, timestamp: "2026-01-10T09:00:20.000Z", targetId: PANEL_SESSION_IDS.a5, replacement: null })}\n`,
    );
    previewSession = placePanelSession(wb, "a11y-preview", true);
    writeFileSync(keybindingsPath(), JSON.stringify([{ key: OPEN_SUMMARY_KEY, command: "piSessions.openSummary", args: { sessionPath: readerSession.path, entryId: PANEL_SESSION_IDS.ourCompaction } }], null, 2));
    settingsBefore = readFileSync(settingsPath(), "utf8");
    await wb.setUserSettings({ "piSessions.compaction.keepRecentTokens": 1, "piSessions.compaction.confirm": true });
  });

  suiteTeardown(async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    rmSync(readerSession.path, { force: true });
    rmSync(previewSession.path, { force: true });
    rmSync(keybindingsPath(), { force: true });
    for (const name of ["models.json", "auth.json"]) rmSync(join(wb.paths.agentDir, name), { force: true });
    await server.close();
    await loopback.cleanup();
    writeFileSync(settingsPath(), settingsBefore);
    await wb.page.reload();
    await wb.ready();
  });

  for (const theme of ALL_THEMES) {
    test(`${theme.setting}: the reader, the summary panel and a compaction preview have no serious or critical axe violation`, async () => {
      const wb = workbench();
      await wb.setColorTheme(theme);
      const problems: string[] = [];

      // The reader, on a session with a context edit and a collapsed compaction summary.
      await wb.runCommand("View: Close All Editors");
      await wb.openViewContainer("Pi Sessions");
      await wb.treeRow("Sessions", READER_TITLE).first().waitFor({ timeout: 30_000 });
      await wb.clickTreeRow("Sessions", READER_TITLE);
      const reader = await readerFrame(wb);
      assert.match((await reader.locator("body").getAttribute("class")) ?? "", theme.bodyClass);
      await reader.locator(".edit-badge").first().waitFor({ timeout: STEP_MS });
      const folded = reader.locator("details.summary-fold:not([open])").first();
      // Laid out, not only attached (a reader still drawing gives 0 px).
      await folded.waitFor({ state: "visible", timeout: STEP_MS });
      const height = await folded.evaluate((element) => element.getBoundingClientRect().height);
      assert.ok(height > 0 && height < 60, `a collapsed summary is one line high, not a box: ${height} px`);
      problems.push(...(await axeProblems(reader)).map((p) => `reader: ${p}`));
      if (theme === THEMES.light) {
        await reader.locator(".edit-badge").first().scrollIntoViewIfNeeded();
        await wb.screenshot("readme/reader-context-edit");
      }

      // The summary panel viewing a compaction.
      await wb.runCommand("View: Close All Editors");
      await wb.page.keyboard.press("Control+Alt+Shift+F8");
      const panel = await summaryFrame(wb);
      await fileRow(panel, "hello.ts").waitFor({ timeout: STEP_MS });
      problems.push(...(await axeProblems(panel)).map((p) => `summary panel: ${p}`));

      // A compaction preview (the loopback model's answer), with "Show rendered" pressed and hovered.
      await wb.runCommand("View: Close All Editors");
      await wb.treeRow("Sessions", PREVIEW_TITLE).first().waitFor({ timeout: 30_000 });
      await wb.clickTreeRow("Sessions", PREVIEW_TITLE);
      // Right after a reload on a loaded machine the extension may run before the window handed it the
      // user settings (keepRecentTokens 1): pi's default keeps everything, "nothing to compact" shows.
      // Asked again once the settings are in; a setting never honoured still fails here.
      for (let attempt = 1; ; attempt++) {
        await wb.runCommand("Pi Sessions: Compact Session");
        await wb.pickQuickInputItem("current");
        await wb.submitInputBox("");
        const refused = await wb.page
          .waitForFunction(() => Array.from(document.querySelectorAll(".notification-toast .notification-list-item-message")).some((m) => /nothing to compact/.test(m.textContent ?? "")), undefined, { timeout: 3000 })
          .then(() => true, () => false);
        if (!refused || attempt === 2) break;
        await wb.runCommand("Notifications: Clear All Notifications");
        await wb.page.waitForTimeout(3000);
      }
      const preview = await summaryFrame(wb);
      await preview.locator("textarea.summary-text").waitFor({ timeout: 30_000 });
      problems.push(...(await axeProblems(preview)).map((p) => `preview: ${p}`));
      const toggle = preview.locator("button.toggle-rendered");
      await toggle.click();
      assert.equal(await toggle.getAttribute("aria-pressed"), "true");
      await toggle.hover();
      problems.push(...(await axeProblems(preview)).map((p) => `preview, Show rendered pressed and hovered: ${p}`));
      await preview.getByRole("button", { name: "Discard", exact: true }).click();

      assert.deepEqual(problems, []);
    });
  }

  test("keyboard only: Tab reaches every manifest row (deleted ones too) and Enter opens the file; in the reader Tab reaches the entries' controls and Enter selects the entry", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.page.keyboard.press("Control+Alt+Shift+F8");
    const panel = await summaryFrame(wb);
    await fileRow(panel, "hello.ts").waitFor({ timeout: STEP_MS });
    const stops = await tabThrough(wb, panel, "header.panel-header h1", 16);
    const rows = stops.filter((s) => s.startsWith("tr.file-row"));
    assert.equal(rows.length, 3, `every manifest row is a Tab stop: ${stops.join(" → ")}`);
    assert.ok(rows.some((r) => /old\.ts/.test(r)), "the deleted file's row too");
    // From the top again, by keyboard to the hello.ts row, and Enter opens it.
    await panel.locator("header.panel-header h1").first().click();
    for (let i = 0; i < 20 && !/^tr\.file-row.*hello\.ts/.test(await focused(panel)); i++) await wb.page.keyboard.press("Tab");
    assert.match(await focused(panel), /^tr\.file-row.*hello\.ts/);
    await wb.page.keyboard.press("Enter");
    await editorTab(wb, "hello.ts").waitFor({ timeout: STEP_MS });

    await wb.runCommand("View: Close All Editors");
    await wb.clickTreeRow("Sessions", READER_TITLE);
    const reader = await readerFrame(wb);
    const readerStops = await tabThrough(wb, reader, ".reader-header .session-title", 12);
    assert.ok(readerStops.filter((s) => s.startsWith("button.block-kind")).length >= 3, `the entries' kind buttons are Tab stops: ${readerStops.join(" → ")}`);
    assert.ok(readerStops.some((s) => s.startsWith("summary")), `a folded part opens from the keyboard: ${readerStops.join(" → ")}`);
    await reader.locator(".reader-header .session-title").first().click();
    for (let i = 0; i < 30 && !(await focused(reader)).startsWith("button.block-kind"); i++) await wb.page.keyboard.press("Tab");
    assert.match(await focused(reader), /^button\.block-kind/);
    const entryId = await reader.evaluate(() => (document.activeElement?.closest("article") as HTMLElement | null)?.dataset.entryId);
    assert.ok(entryId);
    await wb.page.keyboard.press("Enter");
    // Selected in the Entries view, which marks it in the reader in turn.
    await reader.locator(`article.is-revealed[data-entry-id="${entryId}"]`).waitFor({ timeout: STEP_MS });
  });
});
