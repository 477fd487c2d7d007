// An oh-my-pi session as an omp user sees it in VS Code, for the README: the
// file omp 18.3.4 wrote itself (test/fixtures/omp-18/omp-soft-handoff-reset:
// a soft compaction with its short summary, a handoff, a /clear) placed in
// omp's folder for the workspace, as omp would have written it here. The
// Sessions view lists it saying it is omp's, the Entries view shows omp's soft
// compaction (method, tokens before → after, short summary) and the /clear,
// and the reader marks the /clear (its compactions with method and tokens). A screenshot in the dark theme.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ompSessionDirForCwd } from "../../../src/core/discovery/omp-session-folder";
import { workbench } from "./context";
import { STEP_MS } from "./summary-panel-page";
import { THEMES, WEBVIEWS } from "./workbench";

const FIXTURE = join(__dirname, "../../../../test/fixtures/omp-18/omp-soft-handoff-reset.jsonl");
/** The workspace omp ran in when it wrote the fixture (its paths were rewritten to this). */
const FIXTURE_CWD = "/home/u/omp/w/projC";
/** omp names a session with an empty title slot by its first message. */
const TITLE = "Please write the file hello.txt";
/** The row's label is one line, cut short: the method, tokens before → after, the start of the short summary. */
const SOFT_COMPACTION = /^compaction \(soft\) of 4002 → 6926 tokens, keeps from 13746e79 · I wrote hello\.txt, listed the/;
const CLEAR = "── /clear ── everything above is out of omp's context";

suite("workbench: an oh-my-pi session", () => {
  let ompAgentDir: string;
  let settingsBefore: string;
  let sideBarWidth: number | undefined;
  const settingsPath = (): string => join(workbench().paths.userDataDir, "User", "settings.json");

  suiteSetup(async () => {
    const wb = workbench();
    // The launch's run folder: code-server's HOME and TMPDIR are in it, which decide omp's folder name.
    const runDir = dirname(wb.paths.agentDir);
    ompAgentDir = join(runDir, "omp-agent");
    const folder = ompSessionDirForCwd(wb.paths.workspaceDir, join(ompAgentDir, "sessions"), { home: join(runDir, "home"), tmpdir: join(runDir, "tmp") });
    mkdirSync(folder, { recursive: true });
    // As omp writes a session for this workspace: the same bytes, the workspace's path where omp's was.
    const text = readFileSync(FIXTURE, "utf8").split(FIXTURE_CWD).join(wb.paths.workspaceDir);
    writeFileSync(join(folder, "2026-11-23T22-41-04-627Z_01a20a91-ea75-71e4-bc3a-3bae649962d1.jsonl"), text);
    settingsBefore = readFileSync(settingsPath(), "utf8");
    await wb.setUserSettings({ "piSessions.omp.agentDir": ompAgentDir }, { reload: false });
    // The launch's theme, for the picture: the reload applies the setting above too.
    await wb.setColorTheme(THEMES.dark);
  });

  suiteTeardown(async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    if (sideBarWidth !== undefined) await wb.resizeSideBar(sideBarWidth);
    rmSync(ompAgentDir, { recursive: true, force: true });
    writeFileSync(settingsPath(), settingsBefore);
    // The workbench's own reload, which saves its layout first (a page reload can lose the
    // side bar's width put back just before, and later suites' screenshots had it wide).
    const loaded = wb.page.waitForEvent("load", { timeout: 60_000 });
    await wb.runCommand("Developer: Reload Window");
    await loaded;
    await wb.ready();
    // Later suites start from a window showing the Explorer.
    await wb.runCommand("View: Show Explorer");
  });

  test("the Sessions view says the row is omp's; the Entries view shows omp's soft compaction and /clear; the reader marks the /clear (screenshot, dark theme)", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.openViewContainer("Pi Sessions");
    sideBarWidth = await wb.sideBarWidth();
    await wb.widenSideBar(300);

    const row = wb.treeRow("Sessions", TITLE).first();
    await row.waitFor({ timeout: 30_000 });
    assert.match((await row.locator(".label-description").textContent()) ?? "", /^omp · /);
    assert.match((await row.getAttribute("aria-label")) ?? "", new RegExp(`^${TITLE}, omp, `));
    // pi's sessions are listed beside it, without the mark.
    const piRow = wb.treeRow("Sessions", "Rename greeting").first();
    assert.doesNotMatch((await piRow.locator(".label-description").textContent()) ?? "", /omp/);

    await wb.clickTreeRow("Sessions", TITLE);
    await wb.expandView("Entries");
    // The tree renders the rows in view only: Go to Leaf scrolls down to the end, where they are.
    await wb.treeRow("Entries", "Please write the file hello.txt").first().waitFor({ timeout: STEP_MS });
    await wb.runCommand("Pi Sessions: Go to Leaf");
    await wb.treeRow("Entries", CLEAR).first().waitFor({ timeout: STEP_MS });
    const entries = await wb.treeLabels("Entries");
    assert.ok(entries.some((label) => SOFT_COMPACTION.test(label)), `omp's soft compaction in the Entries view: ${entries.join(" | ")}`);
    assert.ok(entries.some((label) => /^compaction \(handoff\) of 3838 → 6939 tokens/.test(label)), entries.join(" | "));

    const reader = await wb.webviewFrame(WEBVIEWS.reader);
    await reader.waitForFunction((title) => document.querySelector(".reader-header h1")?.textContent?.trim() === title, TITLE, { timeout: STEP_MS });
    const clear = reader.locator('article[data-entry-id="ed9b8662"] .mark-text');
    assert.equal((await clear.textContent())?.trim(), "── /clear ── everything above is out of the model's context");
    const soft = reader.locator('article[data-entry-id="09c9f1ce"]');
    assert.equal((await soft.locator(".tokens").textContent())?.trim(), "4,002 tokens before");
    assert.equal((await soft.locator(".detail").textContent())?.trim(), "soft · keeps from 13746e79 · → 6926 tokens after");
    // The /clear in the middle of the reader, the handoff compaction above it.
    await clear.evaluate((element) => element.scrollIntoView({ block: "center" }));
    assert.equal(await clear.isVisible(), true);

    // No hover tooltip or highlight over the picture: the pointer on the empty title bar.
    await wb.page.mouse.move(1000, 17);
    await wb.page.waitForTimeout(400);
    const path = await wb.screenshot("readme/omp-session");
    assert.ok(existsSync(path) && statSync(path).size > 10_000, `${path} is a real screenshot`);
  });
});
