// Pi Sessions: Search Sessions… in the extension host, called with its answers
// (the palette flow is in ui/search.test.ts): pi's query language over the
// workspace's sessions or all projects, and the matching entry revealed.
// Read-only, so it runs in Restricted Mode too.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { SearchResult } from "../../../src/core/search/search-index";
import type { Internals } from "../../../src/extension/internals";
import { EXTENSION_ID } from "./extension-under-test";
import { extensionInternals, fixturePath, LINEAR_ID, run, waitFor } from "./helpers";

suite("Search Sessions @restricted: pi's /resume query language, read-only", () => {
  let internals: Internals;

  suiteSetup(async () => {
    internals = await extensionInternals();
  });

  test("a name match comes first and reveals the session_info entry", async () => {
    const out = await run<{ result: SearchResult; opened: string }>("piSessions.searchSessions", { query: "rename" });
    assert.equal(out.ok, true, out.message);
    assert.deepEqual(out.value?.result.sessions[0]?.matches.map((m) => [m.entryId, m.role, m.snippet]), [
      ["e5f6a7b8", "session_info", "Rename greeting"],
      ["a1b2c3d4", "user", "Rename greeting to salutation in hello.ts"],
    ]);
    await waitFor("the name entry selected", () => {
      const node = internals.services.entriesView.selection[0];
      return node?.kind === "entry" && node.entryId === "e5f6a7b8" ? node : undefined;
    });
  });

  test("a phrase finds the session; its matching entry is revealed and selected in the Entries view", async () => {
    const out = await run<{ result: SearchResult; opened: string }>("piSessions.searchSessions", { query: '"greeting  TO salutation"' });
    assert.equal(out.ok, true, out.message);
    assert.equal(out.value?.opened, fixturePath(LINEAR_ID));
    assert.deepEqual(out.value?.result.sessions.map((s) => s.path), [fixturePath(LINEAR_ID)]);
    assert.deepEqual(out.value?.result.sessions[0]?.matches.map((m) => [m.entryId, m.role, m.snippet]), [["a1b2c3d4", "user", "Rename greeting to salutation in hello.ts"]]);
    assert.equal(internals.services.entriesTree.path, fixturePath(LINEAR_ID));
    await waitFor("the entry selected", () => {
      const node = internals.services.entriesView.selection[0];
      return node?.kind === "entry" && node.entryId === "a1b2c3d4" ? node : undefined;
    });
  });

  test("re: finds an assistant entry by regex and reveals it", async () => {
    const out = await run<{ result: SearchResult; opened: string }>("piSessions.searchSessions", { query: "re:exports\\s+SALUTATION\\.", scope: "all" });
    assert.equal(out.ok, true, out.message);
    assert.deepEqual(out.value?.result.sessions[0]?.matches.map((m) => m.entryId), ["d4e5f6a7"]);
    const selected = await waitFor("the selection", () => {
      const node = internals.services.entriesView.selection[0];
      return node?.kind === "entry" && node.entryId === "d4e5f6a7" ? node : undefined;
    });
    assert.ok(selected);
  });

  test("no match is reported, not thrown", async () => {
    const out = await run("piSessions.searchSessions", { query: "no-such-words-anywhere" });
    assert.equal(out.ok, false);
    assert.equal(out.reason, "not-applicable");
  });

  test("the command is in the Sessions view's title bar", () => {
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { menus: Record<string, { command: string; when?: string }[]> } };
    const item = pkg.contributes.menus["view/title"]!.find((m) => m.command === "piSessions.searchSessions");
    assert.equal(item?.when, "view == piSessions.sessions");
  });
});
