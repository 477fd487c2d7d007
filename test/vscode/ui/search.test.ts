// Search from the command palette as a person does it: run Pi Sessions: Search
// Sessions…, type a query, see the matching entries (role, session, snippet with
// the match marked), pick one: the Entries view shows that session with the entry selected.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { workbench } from "./context";
import { sessionsFolder, smallSession } from "./pi-projects";
import { WEBVIEWS, type Workbench } from "./workbench";

/** Two more projects beside the workspace (folders that exist, so none is marked missing); returns what to remove. */
function otherProjects(wb: Workbench): string[] {
  const scratch = dirname(wb.paths.workspaceDir);
  const todo = join(scratch, "todo-cli");
  const notes = join(scratch, "notes-app");
  const made = [todo, notes, sessionsFolder(wb, todo), sessionsFolder(wb, notes)];
  for (const dir of made) mkdirSync(dir, { recursive: true });
  const example = readFileSync(join(__dirname, "../../../../examples/todo-cli-session.jsonl"), "utf8").split("\n");
  example[0] = JSON.stringify({ ...(JSON.parse(example[0]!) as Record<string, unknown>), cwd: todo });
  writeFileSync(join(sessionsFolder(wb, todo), "2026-02-17T14-03-12-408Z_019c6be9-8698-7522-a609-9f7e8b125f32.jsonl"), example.join("\n"));
  writeFileSync(
    join(sessionsFolder(wb, notes), "2026-02-20T10-00-00-000Z_notes-export.jsonl"),
    smallSession("5b9d0c1e-notes-export", notes, "2026-02-20T10:00:00.000Z", "Export the notes as JSON for the backup script", "Added `notes export --json`: one JSON object per note, sorted by date.", 0.42, "Notes export"),
  );
  writeFileSync(
    join(sessionsFolder(wb, notes), "2026-02-21T16-30-00-000Z_notes-sync.jsonl"),
    smallSession("8e2f4a6b-notes-sync", notes, "2026-02-21T16:30:00.000Z", "Why does sync drop notes edited offline?", "The merge keeps the server copy when both changed; I made it keep the newer one and log the conflict.", 1.87),
  );
  return made;
}

suite("workbench: Search Sessions from the palette", () => {
  suiteTeardown(async () => {
    // Later suites start from a window showing the Explorer.
    await workbench().runCommand("View: Show Explorer");
  });

  test("typing a query lists matching entries with their message's time; choosing one opens the reader at it and selects it in the Entries view", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.runCommand("Pi Sessions: Search Sessions…");
    const widget = wb.page.locator(".quick-input-widget");
    await widget.locator(".quick-input-box input").fill('"greeting to salutation"');
    const row = widget.locator(".monaco-list-row", { hasText: "«greeting to salutation»" }).first();
    await row.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await row.textContent()) ?? "", /user · .*Rename «greeting to salutation» in hello\.ts/);
    // The user message's own time (09:00:01 UTC: its minutes and seconds in any time zone), not the session's last activity (…:00:09).
    assert.match((await row.textContent()) ?? "", /:00:01\b/);
    await row.click();
    const reader = await wb.webviewFrame(WEBVIEWS.reader);
    const revealed = reader.locator('article.block.is-revealed[data-entry-id="a1b2c3d4"]');
    await revealed.waitFor({ state: "visible", timeout: 20_000 });
    await wb.screenshot("readme/search-opens-reader");
    assert.equal(await wb.page.locator(".tabs-container .tab.active", { hasText: "Rename greeting" }).count(), 1, "the reader is the active editor");
    await wb.expandView("Entries");
    const selected = wb.view("Entries").locator(".monaco-list-row.selected");
    await selected.first().waitFor({ state: "visible", timeout: 20_000 });
    assert.match((await selected.first().textContent()) ?? "", /Rename greeting to salutation in hello\.ts/);
  });

  test("a \"touched this file\" row opens the reader at the entry that edited the file", async () => {
    const wb = workbench();
    await wb.openFile("hello.ts");
    await wb.runCommand("Pi Sessions: Sessions That Touched This File");
    const widget = wb.page.locator(".quick-input-widget");
    const row = widget.locator(".monaco-list-row", { hasText: "Rename greeting" }).first();
    await row.waitFor({ state: "visible", timeout: 30_000 });
    // The row's detail ends with its entry's id.
    const entryId = /· ([0-9a-f]{8})/.exec((await row.textContent()) ?? "")?.[1];
    assert.ok(entryId, `an entry id in ${await row.textContent()}`);
    await row.click();
    const reader = await wb.webviewFrame(WEBVIEWS.reader);
    await reader.locator(`article.block.is-revealed[data-entry-id="${entryId}"]`).waitFor({ state: "visible", timeout: 20_000 });
    await wb.runCommand("View: Close All Editors");
  });

  test("the scope button switches to all projects", async () => {
    const wb = workbench();
    await wb.runCommand("Pi Sessions: Search Sessions…");
    const widget = wb.page.locator(".quick-input-widget");
    await widget.locator(".quick-input-title", { hasText: "this workspace" }).waitFor({ timeout: 10_000 });
    await widget.locator('.quick-input-titlebar .action-label[aria-label="Search all projects"]').click();
    await widget.locator(".quick-input-title", { hasText: "all projects" }).waitFor({ timeout: 10_000 });
    await wb.page.keyboard.press("Escape");
  });

  test("screenshots: results with snippets over all projects, and the Sessions view's title-bar actions", async () => {
    const wb = workbench();
    const made = otherProjects(wb);
    try {
      await wb.openViewContainer("Pi Sessions");
      // Wide enough for a row's cost.
      await wb.widenSideBar(420);
      await wb.runCommand("Pi Sessions: Search Sessions…");
      const widget = wb.page.locator(".quick-input-widget");
      const allProjects = widget.locator('.quick-input-titlebar .action-label[aria-label="Search all projects"]');
      if (await allProjects.isVisible()) await allProjects.click();
      await widget.locator(".quick-input-title", { hasText: "all projects" }).waitFor({ timeout: 10_000 });
      await widget.locator(".quick-input-box input").fill("json");
      // Results from three projects: the example's todo-cli, notes-app and the workspace's own.
      for (const text of [/Notes export/, /todo-cli/, /Add a --«json» flag/]) {
        await widget.locator(".monaco-list-row", { hasText: text }).first().waitFor({ state: "visible", timeout: 30_000 });
      }
      const rows = await widget.locator(".monaco-list-row").allTextContents();
      assert.ok(rows.filter((r) => /«json»/i.test(r)).length >= 3, `snippets with the match marked: ${rows.join(" | ")}`);
      const search = await wb.screenshot("readme/search-sessions");
      await wb.page.keyboard.press("Escape");

      // The Sessions view's title bar: all projects, then sort by cost, as a user clicks them.
      const header = wb.view("Sessions").locator(".pane-header");
      await header.hover();
      await header.locator('.action-label[aria-label="Show All Projects"]').click();
      await wb.treeRow("Sessions", /^notes-app/).first().waitFor({ timeout: 20_000 });
      await header.hover();
      await header.locator('.action-label[aria-label="Sort Sessions By…"]').click();
      await wb.pickQuickInputItem("Cost");
      await header.locator(".description", { hasText: /All projects · by cost/ }).waitFor({ timeout: 20_000 });
      for (const group of [/^notes-app/, /^todo-cli/]) {
        const row = wb.treeRow("Sessions", group).first();
        if ((await row.getAttribute("aria-expanded")) === "false") await row.click();
      }
      await wb.treeRow("Sessions", /Why does sync drop notes/).first().waitFor({ timeout: 20_000 });
      await header.hover();
      const actions = await wb.screenshot("readme/sessions-all-projects");
      for (const path of [search, actions]) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    } finally {
      await wb.runCommand("Pi Sessions: Sort Sessions By…");
      await wb.pickQuickInputItem("Last activity");
      await wb.runCommand("Pi Sessions: Show This Workspace Only");
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    }
  });
});
