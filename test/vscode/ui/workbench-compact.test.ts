// Compact Session from the palette, as a user runs it, on the example session
// pi 0.73.1 wrote (examples/todo-cli-session.jsonl, 165 entries, ~50k tokens;
// pi's prepareCompaction gives 62,407 tokens before, see examples/README.md):
// pick "Digest (no model)", Enter through the focus question, Apply the preview
// when it is on, and see the result (the summary panel on the written entry, a
// compaction row at the leaf of the Entries view). Then screenshots in a light
// and a dark theme for the README, switched with VS Code's own toggle (no reload).
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { workbench } from "./context";

const EXAMPLE_TITLE = "todo-cli: --json and done";
type Wb = ReturnType<typeof workbench>;

/** pi's folder for the workspace (session-manager.js getDefaultSessionDir). */
function piDir(wb: Wb): string {
  return join(wb.paths.agentDir, "sessions", `--${wb.paths.workspaceDir.slice(1).replace(/[/\\:]/g, "-")}--`);
}

async function isDark(wb: Wb): Promise<boolean> {
  return wb.page.evaluate(() => document.querySelector(".monaco-workbench")?.classList.contains("vs-dark") === true);
}

async function theme(wb: Wb, dark: boolean): Promise<void> {
  if ((await isDark(wb)) === dark) return;
  await wb.runCommand("Preferences: Toggle between Light/Dark Themes");
  await wb.page.waitForFunction((wanted) => document.querySelector(".monaco-workbench")?.classList.contains(wanted) === true, dark ? "vs-dark" : "vs", { timeout: 20_000 });
}

suite("workbench: Compact Session from the palette", () => {
  let sessionPath: string;

  suiteSetup(() => {
    const wb = workbench();
    const lines = readFileSync(join(__dirname, "../../../../examples/todo-cli-session.jsonl"), "utf8").split("\n");
    // As pi would have written it for this workspace: the header's cwd is the workspace.
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    lines[0] = JSON.stringify({ ...header, cwd: wb.paths.workspaceDir });
    sessionPath = join(piDir(wb), "2026-01-20T09-00-00-000Z_example-todo-cli.jsonl");
    writeFileSync(sessionPath, lines.join("\n"));
  });

  suiteTeardown(() => {
    rmSync(sessionPath, { force: true });
  });

  test("Digest (no model) compacts the session; the summary panel and the Entries view show it", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.openViewContainer("Pi Sessions");
    await wb.treeRow("Sessions", EXAMPLE_TITLE).first().waitFor({ timeout: 30_000 });
    await wb.clickTreeRow("Sessions", EXAMPLE_TITLE);
    await wb.expandView("Entries");
    // The first entry pi wrote (319e5f26).
    await wb.treeRow("Entries", "model anthropic/claude-sonnet-4-5").first().waitFor({ timeout: 20_000 });
    // The click also opened the session reader: close it, so the only webview is the summary panel.
    await wb.runCommand("View: Close All Editors");
    const before = readFileSync(sessionPath, "utf8");

    await wb.runCommand("Pi Sessions: Compact Session");
    await wb.pickQuickInputItem("Digest (no model)");
    await wb.submitInputBox("");
    const frame = await wb.webviewFrame();
    const heading = frame.locator("h1");
    await heading.waitFor({ timeout: 30_000 });
    // With piSessions.compaction.confirm on (the default) the panel first shows the proposal.
    const apply = frame.getByRole("button", { name: "Apply", exact: true });
    if (await apply.isVisible()) {
      assert.equal(readFileSync(sessionPath, "utf8"), before, "nothing written while the preview waits");
      await apply.click();
      await frame.locator(".summary-view").waitFor({ timeout: 20_000 });
    }
    assert.equal((await heading.textContent())?.trim(), "Compaction summary");
    await frame.getByText(/^62,407 /).first().waitFor({ timeout: 10_000 });
    await frame.getByText("digest (no model)").first().waitFor({ timeout: 10_000 });
    const written = JSON.parse(readFileSync(sessionPath, "utf8").slice(before.length)) as { type: string; parentId: string; tokensBefore: number };
    assert.deepEqual([written.type, written.parentId, written.tokensBefore], ["compaction", "50ea4d6e", 62407]);
    // The tree only renders the rows in view: Go to Leaf scrolls to the new leaf.
    await wb.runCommand("Pi Sessions: Go to Leaf");
    const row = wb.treeRow("Entries", /^compaction of 62407 tokens/).first();
    await row.waitFor({ timeout: 20_000 });
    assert.match((await row.textContent()) ?? "", /● leaf/);
    assert.match(await wb.extensionLog(), /compaction \w+ written \(62407 → \d+ tokens, digest\)/);
  });

  test("screenshots in a light and a dark theme", async () => {
    const wb = workbench();
    await wb.widenSideBar();
    const shots: string[] = [];
    for (const dark of [false, true]) {
      await theme(wb, dark);
      await wb.page.keyboard.press("Escape");
      shots.push(await wb.screenshot(`readme/pi-sessions-${dark ? "dark" : "light"}`));
    }
    const [light, dark] = shots as [string, string];
    for (const path of [light, dark]) assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
    assert.notDeepEqual(readFileSync(light), readFileSync(dark));
  });
});
