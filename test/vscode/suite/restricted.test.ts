// Restricted Mode (untrusted workspace): the views still read sessions, but
// every command that calls a model or writes refuses, no request reaches the
// model server and no file changes. Runs only in the Restricted Mode launch.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { scenarios } from "../../support/model-server";
import { BRANCHED_ID, bytes, copySession, extensionInternals, fixturePath, run, startLoopback, type Loopback } from "./helpers";

suite("untrusted workspace @restricted: read-only", () => {
  let internals: Internals;
  let loopback: Loopback;

  suiteSetup(async function () {
    if (vscode.workspace.isTrusted) this.skip();
    internals = await extensionInternals();
    loopback = await startLoopback(() => scenarios.success("should never be asked"));
  });

  suiteTeardown(async () => {
    await loopback?.close();
  });

  test("the Sessions and Entries views still list the sessions", async () => {
    const groups = await internals.services.sessionsTree.getChildren();
    const rows = await internals.services.sessionsTree.getChildren(groups[0]);
    assert.ok(rows.some((row) => row.kind === "session" && row.path === fixturePath(BRANCHED_ID)));
    internals.services.entriesTree.show(fixturePath(BRANCHED_ID));
    assert.equal((await internals.services.entriesTree.getChildren()).length, 6);
  });

  test("commands that write refuse; nothing reaches the model server; files unchanged", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    const attempts: [string, Record<string, unknown>][] = [
      ["piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: false }],
      ["piSessions.compactUpToHere", { sessionPath: path, entryId: "a3000002", model: "loopback-openai/summarizer", focus: "", confirm: false }],
      ["piSessions.summarizeBranchAndNavigate", { sessionPath: path, entryId: "u2000001", model: "loopback-openai/summarizer", focus: "", confirm: false }],
      ["piSessions.navigateToEntry", { sessionPath: path, entryId: "t2000001", summary: "none" }],
      ["piSessions.navigateHere", { sessionPath: path, entryId: "t2000001", summary: "summarize", model: "loopback-openai/summarizer", confirm: false }],
      ["piSessions.undoCompaction", { sessionPath: path }],
      ["piSessions.migrateSession", { sessionPath: path, confirm: false }],
    ];
    for (const [command, args] of attempts) {
      const result = await run(command, args);
      assert.deepEqual([command, result.ok, result.reason], [command, false, "untrusted"]);
    }
    assert.equal(loopback.server.requests.length, 0);
    assert.deepEqual(bytes(path), before);
  });

  test("read-only commands still work: Show Context", async () => {
    const shown = await run<{ document: vscode.TextDocument }>("piSessions.showContext", { sessionPath: fixturePath(BRANCHED_ID) });
    assert.equal(shown.ok, true);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});
