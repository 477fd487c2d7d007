// The Sessions view listing every project while pi starts in a project it has
// never been run in: pi makes that project's folder under the agent folder when
// it starts, and writes the session file with the first message. The new
// project's group and its session appear in the view without a refresh.
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { workbench } from "./context";
import { sessionsFolder, smallSession } from "./pi-projects";

suite("workbench: the Sessions view while pi starts in a new project", () => {
  const made: string[] = [];

  suiteTeardown(async () => {
    const wb = workbench();
    await wb.runCommand("Pi Sessions: Show This Workspace Only");
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
    // Later suites start from a window showing the Explorer.
    await wb.runCommand("View: Show Explorer");
  });

  test("listing every project: a project pi starts in for the first time shows up with its first session", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.runCommand("Pi Sessions: Show All Projects");
    const header = wb.view("Sessions").locator(".pane-header");
    await header.locator(".description", { hasText: /All projects/ }).waitFor({ timeout: 20_000 });
    await wb.treeRow("Sessions", /^workspace/).first().waitFor({ timeout: 20_000 });

    const project = join(dirname(wb.paths.workspaceDir), "weather-app");
    const folder = sessionsFolder(wb, project);
    made.push(project, folder);
    mkdirSync(project, { recursive: true });
    // pi starts there: its folder for the project, empty until the first message.
    mkdirSync(folder, { recursive: true });
    await wb.page.waitForTimeout(1_000);
    const time = new Date().toISOString();
    writeFileSync(
      join(folder, `${time.replace(/[:.]/g, "-")}_weather-first.jsonl`),
      smallSession("3c7d9e1f-weather-first", project, time, "Show tomorrow's forecast in the status line", "The status line now shows tomorrow's high, low and rain chance.", 0.12),
    );

    const group = wb.treeRow("Sessions", /^weather-app/).first();
    await group.waitFor({ timeout: 20_000 });
    if ((await group.getAttribute("aria-expanded")) === "false") await group.click();
    const row = wb.treeRow("Sessions", /Show tomorrow's forecast/).first();
    await row.waitFor({ timeout: 20_000 });
    assert.match((await row.textContent()) ?? "", /Show tomorrow's forecast in the status line/);
  });
});
