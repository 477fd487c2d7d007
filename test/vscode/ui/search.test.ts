// Search from the command palette as a person does it: run Pi Sessions: Search
// Sessions…, type a query, see the matching entries (role, session, snippet with
// the match marked), pick one: the Entries view shows that session with the entry selected.
import * as assert from "node:assert/strict";
import { workbench } from "./context";

suite("workbench: Search Sessions from the palette", () => {
  suiteTeardown(async () => {
    // Later suites start from a window showing the Explorer.
    await workbench().runCommand("View: Show Explorer");
  });

  test("typing a query lists matching entries; choosing one reveals it in the Entries view", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.runCommand("Pi Sessions: Search Sessions…");
    const widget = wb.page.locator(".quick-input-widget");
    await widget.locator(".quick-input-box input").fill('"greeting to salutation"');
    const row = widget.locator(".monaco-list-row", { hasText: "«greeting to salutation»" }).first();
    await row.waitFor({ state: "visible", timeout: 30_000 });
    assert.match((await row.textContent()) ?? "", /user · .*Rename «greeting to salutation» in hello\.ts/);
    await row.click();
    await wb.expandView("Entries");
    const selected = wb.view("Entries").locator(".monaco-list-row.selected");
    await selected.first().waitFor({ state: "visible", timeout: 20_000 });
    assert.match((await selected.first().textContent()) ?? "", /Rename greeting to salutation in hello\.ts/);
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
});
