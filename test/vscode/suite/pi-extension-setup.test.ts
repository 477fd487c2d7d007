// Set Up the pi Extension… in a real extension host: it lists the pi extension
// shipped with this VS Code extension in pi's global settings (every other
// setting kept), says it is active, and removes it again; in Restricted Mode it
// refuses and pi's settings are left as they were. (That pi then loads it is
// proven with the real pi CLIs in test/unit/pi-extension/pi-cli.test.ts.)
import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { agentDir, run } from "./helpers";

const ROOT = join(__dirname, "../../../..");
const COMMAND = "piSessions.setUpPiExtension";

interface SetupValue {
  action: string;
  status: { active: boolean; extensionPath: string; global: { entries: string[] } };
}

function settingsFile(): string {
  return join(agentDir(), "settings.json");
}

suite("pi extension setup: one step from VS Code", () => {
  let before: string | undefined;

  suiteSetup(function () {
    if (!vscode.workspace.isTrusted) this.skip();
    before = existsSync(settingsFile()) ? readFileSync(settingsFile(), "utf8") : undefined;
  });

  suiteTeardown(() => {
    if (before === undefined) rmSync(settingsFile(), { force: true });
    else writeFileSync(settingsFile(), before);
  });

  test("install (all projects) lists this extension's dist/pi-extension.js in pi's settings, keeps the rest, and says it is active; uninstall removes it", async () => {
    writeFileSync(settingsFile(), JSON.stringify({ compaction: { keepRecentTokens: 1234 }, extensions: ["/opt/other.js"] }));
    const installed = await run<SetupValue>(COMMAND, { action: "install", scope: "global" });
    assert.equal(installed.ok, true, installed.message);
    const path = installed.value!.status.extensionPath;
    assert.equal(path, join(ROOT, "dist", "pi-extension.js"));
    assert.ok(existsSync(path), "the extension file ships beside the VS Code extension");
    assert.ok(existsSync(join(ROOT, "dist", "pi-extension-main.js")));
    assert.deepEqual(JSON.parse(readFileSync(settingsFile(), "utf8")), { compaction: { keepRecentTokens: 1234 }, extensions: ["/opt/other.js", path] });
    assert.equal(installed.value!.status.active, true);

    const status = await run<SetupValue>(COMMAND, { action: "status" });
    assert.equal(status.value!.status.active, true);

    const removed = await run<SetupValue>(COMMAND, { action: "uninstall" });
    assert.equal(removed.ok, true, removed.message);
    assert.equal(removed.value!.status.active, false);
    assert.deepEqual(JSON.parse(readFileSync(settingsFile(), "utf8")), { compaction: { keepRecentTokens: 1234 }, extensions: ["/opt/other.js"] });
  });
});

suite("pi extension setup @restricted: refused", () => {
  suiteSetup(function () {
    if (vscode.workspace.isTrusted) this.skip();
  });

  test("install refuses in Restricted Mode and leaves pi's settings as they were", async () => {
    const existed = existsSync(settingsFile());
    const text = existed ? readFileSync(settingsFile(), "utf8") : undefined;
    const outcome = await run(COMMAND, { action: "install", scope: "global" });
    assert.equal(outcome.ok, false);
    assert.equal(outcome.reason, "untrusted");
    assert.equal(existsSync(settingsFile()), existed);
    if (text !== undefined) assert.equal(readFileSync(settingsFile(), "utf8"), text);
  });
});
