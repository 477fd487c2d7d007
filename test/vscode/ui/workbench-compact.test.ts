// Compact Session from the palette, as a user runs it: pick "Digest (no
// model)" in the quick pick, Enter through the focus question, see the
// result (the summary panel on the written entry, a compaction row at the
// leaf of the Entries view); screenshots of it in a light and a dark theme
// for the README. One window reload in all (settings and the light theme).
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { workbench } from "./context";

const BRANCHED_TITLE = "List command: --json flag";

/** Drags the side bar's edge so rows show their descriptions (for the README screenshots). */
async function widenSideBar(wb: ReturnType<typeof workbench>): Promise<void> {
  const box = await wb.sideBar().boundingBox();
  if (!box) return;
  const edge = box.x + box.width + 1;
  await wb.page.mouse.move(edge, box.y + box.height / 2);
  await wb.page.mouse.down();
  await wb.page.mouse.move(edge + 260, box.y + box.height / 2, { steps: 8 });
  await wb.page.mouse.up();
}

async function showBranchedSession(wb: ReturnType<typeof workbench>): Promise<void> {
  await wb.openViewContainer("Pi Sessions");
  await wb.treeRow("Sessions", BRANCHED_TITLE).first().waitFor({ timeout: 30_000 });
  await wb.clickTreeRow("Sessions", BRANCHED_TITLE);
  await wb.expandView("Entries");
  await wb.treeRow("Entries", "Branch 2 of 2").first().waitFor({ timeout: 20_000 });
}

suite("workbench: Compact Session from the palette", () => {
  const shots: string[] = [];

  suiteSetup(async () => {
    // Small fixture: keep only the last turn so there is something to compact; write at once.
    const wb = workbench();
    await wb.setUserSettings({ "piSessions.compaction.keepRecentTokens": 10, "piSessions.compaction.confirm": false }, { reload: false });
    await wb.setColorTheme("Default Light Modern", "light");
  });

  test("Digest (no model) compacts the selected session; the summary panel and the Entries view show it", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await showBranchedSession(wb);

    await wb.runCommand("Pi Sessions: Compact Session");
    await wb.pickQuickInputItem("Digest (no model)");
    await wb.submitInputBox("");
    // The summary panel opens on the written entry (tokens before: the last answer's usage, 2300 + 30).
    const frame = await wb.webviewFrame();
    const heading = frame.locator("h1");
    await heading.waitFor({ timeout: 30_000 });
    assert.equal((await heading.textContent())?.trim(), "Compaction summary");
    await frame.getByText(/^2,330 /).first().waitFor({ timeout: 10_000 });
    await frame.getByText("digest (no model)").first().waitFor({ timeout: 10_000 });
    const row = wb.treeRow("Entries", /^compaction of 2330 tokens/).first();
    await row.waitFor({ timeout: 20_000 });
    assert.match((await row.textContent()) ?? "", /● leaf/);
    assert.match(await wb.extensionLog(), /compaction \w+ written \(2330 → \d+ tokens, digest\)/);
    await widenSideBar(wb);
    shots.push(await wb.screenshot("readme/pi-sessions-light"));
  });

  test("screenshots in a light and a dark theme", async () => {
    const wb = workbench();
    // Without a reload: VS Code's own toggle (to workbench.preferredDarkColorTheme, Default Dark Modern).
    await wb.runCommand("Preferences: Toggle between Light/Dark Themes");
    await wb.page.waitForFunction(() => document.querySelector(".monaco-workbench")?.classList.contains("vs-dark") === true, undefined, { timeout: 20_000 });
    await showBranchedSession(wb);
    await wb.runCommand("Pi Sessions: Show Last Summary");
    await (await wb.webviewFrame()).locator("h1").waitFor({ timeout: 20_000 });
    shots.push(await wb.screenshot("readme/pi-sessions-dark"));
    assert.equal(shots.length, 2, "the light screenshot was taken by the test before");
    const [light, dark] = shots as [string, string];
    for (const path of [light, dark]) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    assert.notDeepEqual(readFileSync(light), readFileSync(dark));
  });
});
