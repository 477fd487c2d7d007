// The installed .vsix used as a person uses it: no development path, the
// extension comes from the extensions folder; the sidebar lists the sessions,
// a click opens the reader on the session and its entries; a screenshot of
// that window for the README (the packaged build, minified, as users get it).
import * as assert from "node:assert/strict";
import type { Frame } from "playwright-core";
import { workbench } from "../ui/context";
import { WEBVIEWS } from "../ui/workbench";

const BRANCHED_TITLE = "List command: --json flag";
const STEP_MS = 30_000;

function readerFrame(): Promise<Frame> {
  return workbench().webviewFrame(WEBVIEWS.reader, STEP_MS);
}

suite("installed .vsix in the workbench", () => {
  test("the sidebar lists the sessions; a click opens the reader and the entries", async () => {
    const wb = workbench();
    await wb.openViewContainer("Pi Sessions");
    await wb.treeRow("Sessions", BRANCHED_TITLE).first().waitFor({ timeout: STEP_MS });
    await wb.clickTreeRow("Sessions", BRANCHED_TITLE);
    const frame = await readerFrame();
    assert.equal((await frame.locator(".reader-header h1").textContent())?.trim(), BRANCHED_TITLE);
    await wb.expandView("Entries");
    await wb.treeRow("Entries", "Branch 2 of 2").first().waitFor({ timeout: STEP_MS });
    assert.ok((await wb.treeLabels("Entries")).includes('name "List command: --json flag"'));
    await wb.screenshot("readme/installed-vsix");
  });
});
