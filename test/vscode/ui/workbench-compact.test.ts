// Compact Session from the palette, as a user runs it: pick "Digest (no
// model)" in the quick pick, Enter through the focus question, see the
// result (notification, a compaction row in the Entries view); then
// screenshots of the sidebar in a light and a dark theme for the README.
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { workbench } from "./context";

const BRANCHED_TITLE = "List command: --json flag";

suite("workbench: Compact Session from the palette", () => {
  suiteSetup(async () => {
    // Small fixture: keep only the last turn so there is something to compact; write at once.
    await workbench().setUserSettings({ "piSessions.compaction.keepRecentTokens": 10, "piSessions.compaction.confirm": false });
  });

  test("Digest (no model) compacts the selected session and the Entries view shows the compaction", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.treeRow("Sessions", BRANCHED_TITLE).first().waitFor({ timeout: 30_000 });
    await wb.clickTreeRow("Sessions", BRANCHED_TITLE);
    await wb.expandView("Entries");
    await wb.treeRow("Entries", "Branch 2 of 2").first().waitFor({ timeout: 20_000 });

    await wb.runCommand("Pi Sessions: Compact Session");
    await wb.pickQuickInputItem("Digest (no model)");
    await wb.submitInputBox("");
    await wb.page
      .locator(".notification-toast .notification-list-item-message", { hasText: /^Compacted: / })
      .first()
      .waitFor({ timeout: 30_000 });
    const toast = (await wb.notifications()).find((text) => text.startsWith("Compacted: "));
    assert.match(toast ?? "", /tokens with digest/);
    await wb.treeRow("Entries", /^compaction of \d+ tokens/).first().waitFor({ timeout: 20_000 });
    const row = wb.treeRow("Entries", /^compaction of \d+ tokens/).first();
    assert.match((await row.textContent()) ?? "", /● leaf/);
    assert.match(await wb.extensionLog(), /compaction \w+ written .* digest\)/);
  });

  test("screenshots in a light and a dark theme", async () => {
    const wb = workbench();
    const shots: string[] = [];
    for (const [theme, kind] of [["Default Light Modern", "light"], ["Default Dark Modern", "dark"]] as const) {
      await wb.setColorTheme(theme, kind);
      await wb.openViewContainer("Pi Sessions");
      await wb.treeRow("Sessions", BRANCHED_TITLE).first().waitFor({ timeout: 30_000 });
      await wb.clickTreeRow("Sessions", BRANCHED_TITLE);
      await wb.expandView("Entries");
      await wb.treeRow("Entries", "Branch 2 of 2").first().waitFor({ timeout: 20_000 });
      await wb.page.keyboard.press("Escape");
      shots.push(await wb.screenshot(`readme/pi-sessions-${kind}`));
    }
    const [light, dark] = shots as [string, string];
    for (const path of [light, dark]) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    assert.notDeepEqual(readFileSync(light), readFileSync(dark));
  });
});
