// "Compact Session" from the palette against the loopback model server (real
// pi-ai, real HTTP, models.json and auth.json in the launch's agent dir), with
// the preview step on: the summary panel shows the proposal with the
// manifest, the user edits it and applies, the session file gets the edited
// text, the panel turns into the view of the written entry, and a reload
// restores it.
import * as assert from "node:assert/strict";
import { copyFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir";
import { PANEL_SESSION_IDS } from "../summary-panel-session";
import { workbench } from "./context";
import { editorTab, fileRow, inSummaryFrame, placePanelSession, STEP_MS, summaryFrame, waitForClass } from "./summary-panel-page";

const SESSION_TITLE = "Summary panel compact";
const MODEL_ANSWER = "## Goal\nGreet the world from hello.ts.\n\n## Progress\n### Done\n- [x] hello.ts written\n\n## Next Steps\n1. Add a test";
const EDITED = "## Goal\nGreet the world from hello.ts (edited in the panel).\n\n## Next Steps\n1. Add a test for the greeting";

suite("workbench: the summary panel after Compact Session from the palette", () => {
  let server: ModelServer;
  let loopback: LoopbackAgentDir;
  let session: { path: string; outsideFile: string };
  let before: string;
  let settingsBefore: string;
  const settingsPath = (): string => join(workbench().paths.userDataDir, "User", "settings.json");

  suiteSetup(async () => {
    const wb = workbench();
    server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success(MODEL_ANSWER) });
    loopback = await writeLoopbackAgentDir(server);
    for (const name of ["models.json", "auth.json"]) copyFileSync(join(loopback.agentDir, name), join(wb.paths.agentDir, name));
    session = placePanelSession(wb, "compact", true);
    before = readFileSync(session.path, "utf8");
    // The fixture is small: keep only the last turn, so there is something to compact. Preview on.
    settingsBefore = readFileSync(settingsPath(), "utf8");
    await wb.setUserSettings({ "piSessions.compaction.keepRecentTokens": 1, "piSessions.compaction.confirm": true });
  });

  suiteTeardown(async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    rmSync(session.path, { force: true });
    for (const name of ["models.json", "auth.json"]) rmSync(join(wb.paths.agentDir, name), { force: true });
    await server.close();
    await loopback.cleanup();
    // The suites after this one get the settings they had (code-server reads them when the window loads).
    writeFileSync(settingsPath(), settingsBefore);
    await wb.page.reload();
    await wb.ready();
  });

  test("the preview shows the model's summary and the manifest; edit, Apply writes the edited text; the panel views the entry; a reload restores it", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.openViewContainer("Pi Sessions");
    await wb.treeRow("Sessions", SESSION_TITLE).first().waitFor({ timeout: 30_000 });
    await wb.clickTreeRow("Sessions", SESSION_TITLE);

    await wb.runCommand("Pi Sessions: Compact Session");
    await wb.pickQuickInputItem("current");
    await wb.submitInputBox("");

    // The preview: not applied yet, the model's text in the editor, the manifest below.
    const frame = await summaryFrame(wb);
    const textarea = frame.locator("textarea.summary-text");
    await textarea.waitFor({ timeout: 30_000 });
    assert.match((await frame.locator("h1").textContent()) ?? "", /Compaction summary\s+Preview: not applied yet/);
    assert.equal((await frame.locator(".model").textContent())?.trim(), "loopback-openai/summarizer");
    const proposed = await textarea.inputValue();
    assert.ok(proposed.startsWith(MODEL_ANSWER), `the editor starts with the model's answer:\n${proposed.slice(0, 200)}`);
    assert.match(proposed, /## Files touched \(cumulative\)/);
    const paths = (await frame.locator("tr.file-row .display-path").allTextContents()).map((text) => text.trim());
    assert.deepEqual(paths, [session.outsideFile, "old.ts", "hello.ts"]);
    // keepRecentTokens 1 cuts at the last message (a5, the assistant's answer to u3): a split
    // turn, so pi's two calls: the history and the turn's prefix.
    assert.equal(server.requests.length, 2);
    assert.ok(server.requests.every((request) => request.auth.matchesExpectedKey));
    assert.equal(readFileSync(session.path, "utf8"), before, "nothing written while the preview waits");
    await wb.screenshot("readme/summary-panel-preview");

    await textarea.fill(EDITED);
    await frame.getByRole("button", { name: "Apply", exact: true }).click();

    // The view of the written entry, in the same panel.
    await frame.locator(".panel-status", { hasText: /^Applied: the summary is entry \w+ of the session\.$/ }).waitFor({ timeout: STEP_MS });
    await frame.locator(".summary-view").waitFor({ timeout: STEP_MS });
    assert.equal((await frame.locator("h1").textContent())?.trim(), "Compaction summary");
    const lines = readFileSync(session.path, "utf8");
    assert.ok(lines.startsWith(before), "appended after the old bytes");
    const written = JSON.parse(lines.slice(before.length)) as { id: string; type: string; parentId: string; summary: string };
    assert.deepEqual([written.type, written.parentId, written.summary], ["compaction", PANEL_SESSION_IDS.info, EDITED]);
    const status = (await frame.locator(".panel-status").first().textContent()) ?? "";
    assert.ok(status.includes(written.id), `the status names the written entry ${written.id}: ${status}`);
    const headings = (await frame.locator(".summary-view .markdown-body h3").allTextContents()).map((text) => text.trim());
    assert.deepEqual(headings, ["Goal", "Next Steps"]);
    assert.equal(await wb.page.locator(".tabs-container .tab", { hasText: "Compaction summary" }).count(), 1, "one panel: the preview became the view");

    // The manifest of the view: a row click opens the file and marks it.
    await fileRow(frame, "hello.ts").click();
    await editorTab(wb, "hello.ts").waitFor({ timeout: STEP_MS });
    await waitForClass(frame, fileRow(frame, "hello.ts"), "is-open");

    await wb.runCommand("Developer: Reload Window");
    await wb.ready();
    await inSummaryFrame(wb, async (restored) => {
      await restored.locator(".summary-view").waitFor({ timeout: STEP_MS });
      const links = (await restored.locator(".entry-link").allTextContents()).map((text) => text.replace("Reveal entry ", "").trim());
      assert.ok(links.includes(written.id), `the restored panel shows entry ${written.id}: ${links.join(", ")}`);
      assert.equal((await restored.locator(".summary-view .markdown-body h3").first().textContent())?.trim(), "Goal");
      await waitForClass(restored, fileRow(restored, "hello.ts"), "is-open");
    });
  });
});
