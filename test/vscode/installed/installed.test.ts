// The extension that runs is the installed one, and its activation events work from
// the bundled, minified build.
import * as assert from "node:assert/strict";
import { sep } from "node:path";
import * as vscode from "vscode";
import type { PiSessionsApi } from "../../../src/extension/extension";

suite("installed .vsix", () => {
  const id = "pi-sessions.pi-sessions";

  test("the extension comes from the extensions folder, not from a development path", () => {
    const extension = vscode.extensions.getExtension(id);
    assert.ok(extension, `${id} is installed`);
    const extensionsDir = process.env.PI_SESSIONS_TEST_EXTENSIONS_DIR;
    assert.ok(extensionsDir, "the launcher says where the extensions folder is");
    assert.ok(extension.extensionPath.startsWith(extensionsDir + sep), `${extension.extensionPath} is inside ${extensionsDir}`);
  });

  test("it is not active before one of its activation events (no '*')", () => {
    assert.equal(vscode.extensions.getExtension(id)?.isActive, false);
  });

  test("running Pi Sessions: Refresh activates it and its API is there", async () => {
    await vscode.commands.executeCommand("piSessions.refresh");
    const extension = vscode.extensions.getExtension<PiSessionsApi>(id);
    assert.equal(extension?.isActive, true);
    const api = extension!.exports;
    assert.equal(api.log.name, "Pi Sessions");
    const rows = await api.sessions.getChildren(undefined);
    assert.ok(Array.isArray(rows) && rows.length > 0);
  });
});
