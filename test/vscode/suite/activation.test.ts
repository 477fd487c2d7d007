// Activation is cheap: it reads no session and loads no pi-ai (the model
// registry loads only once the Sessions view is visible, or a command needs a
// model). This file sorts first, so nothing else has run in this host yet.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import { EXTENSION_ID } from "./extension-under-test";
import { extensionInternals } from "./helpers";

suite("activation @restricted: cheap and lazy", () => {
  test("the extension is not active before something asks for it (no '*' activation)", () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const events = (extension.packageJSON as { activationEvents?: string[] }).activationEvents ?? [];
    assert.ok(!events.includes("*") && !events.includes("onStartupFinished"), `activation events: ${events.join(", ")}`);
  });

  test("after activation no session was read and pi-ai was not loaded", async () => {
    const internals = await extensionInternals();
    assert.equal(internals.piAiRequested(), false, "pi-ai was requested during activation");
    assert.deepEqual(internals.services.store.paths(), [], "sessions were read during activation");
    assert.equal(internals.services.store.stats.opened, 0);
  });
});
