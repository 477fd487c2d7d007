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
    assert.equal(api.log.name, "Pi Sessions");
  });

  test("registers the Pi Sessions commands declared in package.json", async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    const declared = (extension?.packageJSON as { contributes?: { commands?: { command: string }[] } }).contributes?.commands ?? [];
    assert.ok(declared.length > 0, "package.json declares commands");
    const registered = new Set(await vscode.commands.getCommands(true));
    for (const { command } of declared) assert.ok(registered.has(command), `${command} is registered`);
  });

  test("both views answer with tree items", async () => {
    for (const provider of [api.sessions, api.entries]) {
      const children = await provider.getChildren(undefined);
      assert.ok(Array.isArray(children) && children.length > 0, "the root has rows");
      const item = await provider.getTreeItem(children[0]!);
      assert.equal(typeof item.label === "string" ? item.label.length > 0 : Boolean(item.label?.label), true);
    }
  });

  test("the refresh command reloads both trees", async () => {
    const fired: string[] = [];
    const subscriptions = [
      api.sessions.onDidChangeTreeData?.(() => fired.push("sessions")),
      api.entries.onDidChangeTreeData?.(() => fired.push("entries")),
    ];
    try {
      await vscode.commands.executeCommand("piSessions.refresh");
      assert.deepEqual(fired.sort(), ["entries", "sessions"]);
    } finally {
      for (const subscription of subscriptions) subscription?.dispose();
    }
  });

  test("the pi agent dir holds the fixture session where pi keeps this workspace's sessions", () => {
    const agentDir = process.env.PI_CODING_AGENT_DIR;
    const workspace = process.env.PI_SESSIONS_TEST_WORKSPACE;
    assert.ok(agentDir && workspace);
    // pi's rule (session-manager.js getDefaultSessionDir): "--" + cwd without its leading
    // slash, every "/" "\\" ":" turned into "-", + "--".
    const folder = join(agentDir, "sessions", `--${workspace.slice(1).replace(/[/\\:]/g, "-")}--`);
    const files = readdirSync(folder).filter((name) => name.endsWith(".jsonl"));
    assert.equal(files.length, 1);
    const header = JSON.parse(readFileSync(join(folder, files[0]!), "utf8").split("\n")[0]!) as { type: string; cwd: string };
    assert.deepEqual([header.type, header.cwd], ["session", workspace]);
  });

  test("runs in the workspace and trust mode the launcher asked for", () => {
    const expectedTrust = process.env.PI_SESSIONS_TEST_TRUSTED !== "0";
    assert.equal(vscode.workspace.isTrusted, expectedTrust);
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.equal(folders.length, 1);
    assert.equal(folders[0]!.uri.fsPath, process.env.PI_SESSIONS_TEST_WORKSPACE);
  });
});
