// A person's view of Pi Sessions in the workbench: the activity-bar container
// and its two views, the fixture sessions listed, a session's entries, the
// palette, and screenshots in a light and a dark theme.
import * as assert from "node:assert/strict";
import { workbench } from "./context";

const BRANCHED_TITLE = "List command: --json flag";

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

  test("the Sessions view lists the workspace folder and its sessions, newest first", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.treeRow("Sessions", BRANCHED_TITLE).first().waitFor({ timeout: 30_000 });
    const labels = await wb.treeLabels("Sessions");
    assert.deepEqual(labels.slice(1), [BRANCHED_TITLE, "Rename greeting", "Explain what hello.ts exports."]);
  });

  test("clicking a session shows its entries: the first run flat, the current branch open down to the leaf", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.clickTreeRow("Sessions", BRANCHED_TITLE);
    await wb.expandView("Entries");
    await wb.treeRow("Entries", "Branch 2 of 2").first().waitFor({ timeout: 20_000 });
    const labels = await wb.treeLabels("Entries");
    assert.equal(labels[0], "Add a --json flag to the list command in src/list.ts so scripts can read the todo list.");
    assert.ok(labels.includes("Branch 1 of 2") && labels.includes("Branch 2 of 2"), labels.join(" | "));
    assert.ok(labels.includes('name "List command: --json flag"'), "the leaf (session_info) is shown");
    const leaf = wb.treeRow("Entries", 'name "List command: --json flag"').first();
    assert.match((await leaf.textContent()) ?? "", /● leaf/);
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
});
