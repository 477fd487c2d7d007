// The extension activates in a real extension host and its contributions are live.
import * as assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { PiSessionsApi } from "../../../src/extension/extension";
import { EXTENSION_ID, activateExtension } from "./extension-under-test";

suite("smoke @restricted: the extension in a real extension host", () => {
  let api: PiSessionsApi;

  suiteSetup(async () => {
    api = await activateExtension();
  });

  test("activates and exports its API", () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    assert.equal(extension.isActive, true);
    assert.equal(typeof api.refresh, "function");
    assert.equal(typeof api.onBeforeCompact, "function");
    assert.equal(typeof api.onBeforeBranchSummary, "function");
    assert.equal(typeof api.onDidCompact, "function");
    assert.equal(typeof api.onDidBranchSummary, "function");
    assert.equal(api.log.name, "Pi Sessions");
  });

  test("registers the Pi Sessions commands declared in package.json", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const declared = (extension?.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
    assert.ok(declared.length >= 10, "package.json declares the commands");
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const { command } of declared) assert.ok(registered.has(command), `${command} is registered`);
  });

  test("every palette command has the category Pi Sessions", () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const declared = (extension?.packageJSON as { contributes?: { commands?: { command: string; category?: string }[] } }).contributes?.commands ?? [];
    for (const command of declared) assert.equal(command.category, "Pi Sessions", command.command);
  });

  test("the refresh command reloads the Sessions tree", async () => {
    let fired = 0;
    const subscription = api.sessions.onDidChangeTreeData?.(() => fired++);
    try {
      await vscode.commands.executeCommand("piSessions.refresh");
      assert.ok(fired > 0);
    } finally {
      subscription?.dispose();
    }
  });

  test("the pi agent dir holds the fixture sessions where pi keeps this workspace's sessions", () => {
    const agentDir = process.env.PI_CODING_AGENT_DIR;
    const workspace = process.env.PI_SESSIONS_TEST_WORKSPACE;
    assert.ok(agentDir && workspace);
    // pi's rule (session-manager.js getDefaultSessionDir): "--" + cwd without its leading
    // slash, every "/" "\\" ":" turned into "-", + "--".
    const folder = join(agentDir, "sessions", `--${workspace.slice(1).replace(/[/\\:]/g, "-")}--`);
    const files = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
    assert.ok(files.length >= 2);
    for (const file of files) {
      const header = JSON.parse(readFileSync(join(folder, file), "utf8").split("\n")[0]!) as { type: string; cwd: string };
      assert.deepEqual([header.type, header.cwd], ["session", workspace]);
    }
  });

  test("runs in the workspace and trust mode the launcher asked for", () => {
    const expectedTrust = process.env.PI_SESSIONS_TEST_TRUSTED !== "0";
    assert.equal(vscode.workspace.isTrusted, expectedTrust);
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    assert.equal(folders[0]!.uri.fsPath, process.env.PI_SESSIONS_TEST_WORKSPACE);
  });
});
