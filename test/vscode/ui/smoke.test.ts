// A person's view of the skeleton: the activity-bar container, its two views, the
// palette command, a webview, and screenshots in a light and a dark theme.
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { workbench } from "./context";

suite("workbench: Pi Sessions in the UI", () => {
  test("the activity bar opens the Pi Sessions container with its two views", async () => {
    const wb = workbench();
    assert.equal(await wb.isViewContainerOpen("Pi Sessions"), false, "a fresh window shows the Explorer");
    await wb.activityBarItem("Pi Sessions").click();
    await wb.page.waitForFunction(() => document.querySelector(".part.sidebar .composite.title h2")?.textContent?.trim().toLowerCase() === "pi sessions");
    const titles = (await wb.viewTitles()).map((title) => title.toLowerCase());
    assert.ok(titles.includes("sessions"), `views shown: ${titles.join(", ")}`);
    assert.ok(titles.includes("entries"), `views shown: ${titles.join(", ")}`);
  });

  test("the Sessions tree shows its row and a click selects it", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    assert.deepEqual(await wb.treeLabels("Sessions"), ["No pi sessions loaded yet"]);
    await wb.clickTreeRow("Sessions", "No pi sessions loaded yet");
    const row = wb.treeRow("Sessions", "No pi sessions loaded yet");
    assert.equal(await row.getAttribute("aria-selected"), "true");
  });

  test("Pi Sessions: Refresh runs from the command palette", async () => {
    const wb = workbench();
    const count = (log: string): number => log.split("\n").filter((line) => line.includes("refresh requested")).length;
    const before = count(await wb.extensionLog());
    await wb.runCommand("Pi Sessions: Refresh");
    const deadline = Date.now() + 10_000;
    while (count(await wb.extensionLog()) === before && Date.now() < deadline) await wb.page.waitForTimeout(100);
    assert.equal(count(await wb.extensionLog()), before + 1);
  });

  test("screenshots in a light and a dark theme", async () => {
    const wb = workbench();
    const shots: string[] = [];
    for (const [theme, kind] of [["Default Light Modern", "light"], ["Default Dark Modern", "dark"]] as const) {
      await wb.setColorTheme(theme, kind);
      await wb.openViewContainer("Pi Sessions");
      assert.deepEqual(await wb.treeLabels("Sessions"), ["No pi sessions loaded yet"]);
      shots.push(await wb.screenshot(`pi-sessions-${kind}`));
    }
    const [light, dark] = shots as [string, string];
    for (const path of [light, dark]) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    assert.notDeepEqual(readFileSync(light), readFileSync(dark));
  });

  test("a webview's document is reachable (Markdown preview of the workspace README)", async () => {
    const wb = workbench();
    await wb.openFile("README.md");
    await wb.runCommand("Markdown: Open Preview");
    const frame = await wb.webviewFrame();
    const heading = frame.locator("h1");
    await heading.waitFor({ timeout: 20_000 });
    assert.equal((await heading.textContent())?.trim(), "Fixture workspace");
  });
});
