// Curating sessions as a person does it, for the README's screenshots: Export
// Session… (the format picker), Move to Trash (the confirmation naming the file
// and its size; cancelled), Clean Up… (the proposals with their total size;
// cancelled), and, on a workspace file a session edited, Sessions That Touched
// This File (the list of entries) and Session Changes to This File (the diff
// editor, before ↔ after, the "before" recovered backwards from the file on disk).
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { workbench } from "./context";
import { piSessionFolder, STEP_MS } from "./summary-panel-page";

const MAIN_TITLE = "Tidy the greeting helper";
const OLD_TITLE = "Old experiment from May";
const FILE = "greeting.ts";
const BEFORE = 'export function greet(name: string): string {\n  return "Hello " + name;\n}\n';
const EDIT_1 = { oldText: '  return "Hello " + name;', newText: "  return `Hello, ${name}!`;" };
const EDIT_2 = { oldText: "}\n", newText: '}\n\nexport const defaultGreeting = greet("world");\n' };
const AFTER = BEFORE.replace(EDIT_1.oldText, EDIT_1.newText).replace(EDIT_2.oldText, EDIT_2.newText);

function sessionText(id: string, cwd: string, start: string, title: string, steps: { text: string; calls: { name: string; arguments: Record<string, unknown> }[] }[]): string {
  const lines: Record<string, unknown>[] = [{ type: "session", version: 3, id, timestamp: start, cwd }];
  let clock = Date.parse(start);
  let parent: string | null = null;
  let n = 0;
  const add = (entry: Record<string, unknown>): void => {
    const entryId = `${id.slice(0, 4)}${(++n).toString().padStart(4, "0")}`;
    clock += 30_000;
    lines.push({ ...entry, id: entryId, parentId: parent, timestamp: new Date(clock).toISOString() });
    parent = entryId;
  };
  const usage = { input: 1200, output: 80, cacheRead: 0, cacheWrite: 0, totalTokens: 1280, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
  for (const step of steps) {
    add({ type: "message", message: { role: "user", content: [{ type: "text", text: step.text }], timestamp: clock } });
    step.calls.forEach((call, i) => {
      add({ type: "message", message: { role: "assistant", content: [{ type: "toolCall", id: `c${n}-${i}`, ...call }], provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages", usage, stopReason: "toolUse", timestamp: clock } });
      add({ type: "message", message: { role: "toolResult", toolCallId: `c${n - 1}-${i}`, toolName: call.name, content: [{ type: "text", text: "ok" }], isError: false, timestamp: clock } });
    });
    add({ type: "message", message: { role: "assistant", content: [{ type: "text", text: "Done." }], provider: "anthropic", model: "claude-sonnet-4-5", api: "anthropic-messages", usage, stopReason: "stop", timestamp: clock } });
  }
  add({ type: "session_info", name: title });
  return lines.map((line) => JSON.stringify(line)).join("\n") + "\n";
}

/** The quick input's title once it reads `pattern`. */
async function quickInputTitle(pattern: RegExp): Promise<string> {
  const wb = workbench();
  const title = wb.page.locator(".quick-input-widget .quick-input-title");
  await wb.page.waitForFunction(
    (source) => new RegExp(source).test(document.querySelector(".quick-input-widget .quick-input-title")?.textContent ?? ""),
    pattern.source,
    { timeout: STEP_MS },
  );
  return (await title.textContent()) ?? "";
}

async function quickInputLabels(): Promise<string[]> {
  const labels = await workbench().page.locator(".quick-input-widget .monaco-list-row .label-name").allTextContents();
  return labels.map((label) => label.trim());
}

async function shot(name: string): Promise<void> {
  // No hover tooltip over the picture, and the quick input's fade-in finished.
  await workbench().page.mouse.move(1200, 780);
  await workbench().page.waitForTimeout(400);
  const path = await workbench().screenshot(`readme/${name}`);
  assert.ok(existsSync(path) && statSync(path).size > 10_000);
}

async function escapeQuickInput(): Promise<void> {
  const wb = workbench();
  await wb.page.keyboard.press("Escape");
  await wb.page.locator(".quick-input-widget").waitFor({ state: "hidden", timeout: STEP_MS });
}

suite("workbench: curating sessions (README screenshots)", () => {
  const written: string[] = [];

  suiteSetup(async () => {
    const wb = workbench();
    const folder = piSessionFolder(wb);
    mkdirSync(folder, { recursive: true });
    const cwd = wb.paths.workspaceDir;
    const place = (name: string, text: string): void => {
      const path = join(folder, name);
      writeFileSync(path, text);
      // Last written when pi wrote its newest entry (a session's last activity counts the file's mtime too).
      const newest = Math.max(...text.trimEnd().split("\n").map((line) => Date.parse((JSON.parse(line) as { timestamp: string }).timestamp)));
      utimesSync(path, new Date(newest), new Date(newest));
      written.push(path);
    };
    place(
      "2026-11-20T09-00-00-000Z_curate-main.jsonl",
      sessionText("7a1b0000-0000-4000-8000-000000000001", cwd, "2026-11-20T09:00:00.000Z", MAIN_TITLE, [
        { text: `Make ${FILE} friendlier`, calls: [{ name: "read", arguments: { path: FILE } }, { name: "edit", arguments: { path: FILE, edits: [EDIT_1] } }] },
        { text: "Export a default greeting too, and type-check it", calls: [{ name: "edit", arguments: { path: FILE, edits: [EDIT_2] } }, { name: "bash", arguments: { command: `npx tsc --noEmit ${FILE} && grep -n greet ${FILE}` } }] },
      ]),
    );
    place("2025-05-02T08-00-00-000Z_curate-old.jsonl", sessionText("7a1b0000-0000-4000-8000-000000000002", cwd, "2025-05-02T08:00:00.000Z", OLD_TITLE, [{ text: "Try a quick idea", calls: [{ name: "bash", arguments: { command: "ls" } }] }]));
    place("2026-11-21T10-00-00-000Z_curate-empty.jsonl", JSON.stringify({ type: "session", version: 3, id: "7a1b0000-0000-4000-8000-000000000003", timestamp: "2026-11-21T10:00:00.000Z", cwd }) + "\n");
    const file = join(cwd, FILE);
    writeFileSync(file, AFTER);
    written.push(file);
    await wb.openViewContainer("Pi Sessions");
    await wb.runCommand("Pi Sessions: Refresh");
    await wb.treeRow("Sessions", MAIN_TITLE).first().waitFor({ timeout: STEP_MS });
    await wb.treeRow("Sessions", OLD_TITLE).first().waitFor({ timeout: STEP_MS });
  });

  suiteTeardown(async () => {
    const wb = workbench();
    await wb.page.keyboard.press("Escape");
    await wb.runCommand("View: Close All Editors");
    for (const path of written) rmSync(path, { force: true });
    await wb.runCommand("Pi Sessions: Refresh");
    await wb.treeRow("Sessions", MAIN_TITLE).first().waitFor({ state: "detached", timeout: STEP_MS });
    await wb.runCommand("View: Show Explorer");
  });

  test("Export Session… offers Markdown, an offline HTML page and a session JSONL", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.clickTreeRow("Sessions", MAIN_TITLE);
    await wb.page.locator(".tabs-container .tab", { hasText: MAIN_TITLE }).first().waitFor({ timeout: STEP_MS });
    await wb.runCommand("Pi Sessions: Export Session…");
    assert.match(await quickInputTitle(/Export Session/), /Pi Sessions: Export Session/);
    const labels = await quickInputLabels();
    assert.deepEqual(labels.filter((label) => ["Markdown", "HTML page", "Session JSONL"].includes(label)), ["Markdown", "HTML page", "Session JSONL"]);
    await shot("export-session");
    await escapeQuickInput();
  });

  test("Move to Trash asks first, naming the file and its size (cancelled here)", async () => {
    const wb = workbench();
    await wb.runCommand("Pi Sessions: Move to Trash");
    await wb.pickQuickInputItem(OLD_TITLE);
    const dialog = wb.page.locator(".monaco-dialog-box");
    await dialog.waitFor({ timeout: STEP_MS });
    const text = (await dialog.textContent()) ?? "";
    assert.match(text, /curate-old\.jsonl/);
    assert.match(text, /\d+(\.\d+)? (B|KB)/);
    await shot("move-to-trash");
    await wb.page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden", timeout: STEP_MS });
    assert.equal(existsSync(written[1]!), true, "nothing moved");
  });

  test("Clean Up… proposes empty and unused sessions with their total size before anything moves (cancelled here)", async () => {
    const wb = workbench();
    await wb.runCommand("Pi Sessions: Clean Up…");
    await quickInputTitle(/Clean Up$/);
    await wb.page.keyboard.press("Enter");
    const title = await quickInputTitle(/Clean Up — \d+ sessions?, /);
    assert.match(title, /in all/);
    const labels = await quickInputLabels();
    assert.ok(labels.includes(OLD_TITLE), `proposed: ${labels.join(", ")}`);
    assert.ok(labels.some((label) => /curate-empty/.test(label)), `proposed: ${labels.join(", ")}`);
    assert.ok(!labels.includes(MAIN_TITLE));
    await shot("clean-up");
    await escapeQuickInput();
    for (const path of written) assert.equal(existsSync(path), true, "nothing moved");
  });

  test("Sessions That Touched This File lists each entry with its letters and tool", async () => {
    const wb = workbench();
    await wb.runCommand("View: Close All Editors");
    await wb.openFile(FILE);
    await wb.runCommand("Pi Sessions: Sessions That Touched This File");
    await quickInputTitle(/Pi sessions that touched greeting\.ts/);
    await wb.page.waitForFunction(() => document.querySelectorAll(".quick-input-widget .monaco-list-row").length >= 4, undefined, { timeout: STEP_MS });
    const rows = await wb.page.locator(".quick-input-widget .monaco-list-row").allTextContents();
    assert.ok(rows.every((row) => row.includes(MAIN_TITLE)), rows.join(" | "));
    await shot("sessions-touching-file");
    await escapeQuickInput();
  });

  test("Session Changes to This File opens the diff editor on what the session did", async () => {
    const wb = workbench();
    await wb.runCommand("Pi Sessions: Session Changes to This File");
    await quickInputTitle(/greeting\.ts: what the session did/);
    await wb.pickQuickInputItem("All changes of this session");
    const tab = wb.page.locator(".tabs-container .tab", { hasText: "before ↔ after" });
    await tab.first().waitFor({ timeout: STEP_MS });
    await wb.page.locator(".monaco-diff-editor .modified .view-line", { hasText: "defaultGreeting" }).first().waitFor({ timeout: STEP_MS });
    await wb.page.locator(".monaco-diff-editor .original .view-line", { hasText: '"Hello " + name' }).first().waitFor({ timeout: STEP_MS });
    await wb.page.waitForTimeout(500);
    await shot("session-changes-to-file");
  });
});
