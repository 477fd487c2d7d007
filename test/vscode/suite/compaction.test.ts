// Compact Session in a trusted workspace against the loopback model server
// (real pi-ai, real HTTP): the written entry is one pi loads (checked with the
// core: openSessionSync + buildContextFromPath); cancel mid-stream and a
// failing model write nothing (bytes identical); the digest needs no model;
// the exported hooks cancel or supply the summary; the preview step writes
// the edited text on Apply and nothing on Discard.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { PiSessionsApi } from "../../../src/extension/api";
import type { Internals } from "../../../src/extension/internals";
import { buildContextFromPath } from "../../../src/core/context";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import type { CompactionEntry } from "../../../src/core/session/format/types";
import { DIGEST_FIRST_LINE } from "../../../src/core/summarize/digest";
import { scenarios, type ModelScenario } from "../../support/model-server";
import { activateExtension } from "./extension-under-test";
import { BRANCHED_ID, bytes, copySession, extensionInternals, run, setSetting, startLoopback, waitFor, type Loopback } from "./helpers";

const SUMMARY = "## Goal\nAdd a --json flag to the list command.\n\n## Progress\nlist(items, true) prints JSON; tests added.";

interface CompactValue {
  written: boolean;
  outcome: string;
  entry: CompactionEntry | null;
  model: string;
  tokensBefore: number;
}

suite("Compact Session (trusted workspace, loopback model)", () => {
  let internals: Internals;
  let api: PiSessionsApi;
  let loopback: Loopback;
  let respond: ModelScenario = scenarios.success(SUMMARY);

  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    api = await activateExtension();
    internals = await extensionInternals();
    loopback = await startLoopback(() => respond);
    // The fixture is small: keep only the last turn so there is something to compact.
    await setSetting("compaction.keepRecentTokens", 10);
  });

  suiteTeardown(async () => {
    await setSetting("compaction.keepRecentTokens", undefined);
    await loopback?.close();
  });

  setup(() => {
    respond = scenarios.success(SUMMARY);
  });

  test("writes one compaction entry that pi's context starts with", async () => {
    const path = copySession(BRANCHED_ID);
    const requestsBefore = loopback.server.requests.length;
    const result = await run<CompactValue>("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "the flag's name", confirm: false });
    assert.equal(result.ok, true, result.message);
    const value = result.value!;
    assert.equal(value.written, true);
    assert.equal(value.model, "loopback-openai/summarizer");
    // keepRecentTokens 10 keeps from a3000002, inside the turn of u3000001: pi splits the
    // turn and asks twice in parallel (the history, and the turn's prefix).
    const requests = loopback.server.requests.slice(requestsBefore);
    assert.equal(requests.length, 2);
    for (const request of requests) assert.equal(request.auth.matchesExpectedKey, true);
    assert.ok(requests.some((request) => /Additional focus: the flag's name/.test(request.promptText)));

    const session = openSessionSync(path);
    assert.equal(session.index.size, 17);
    const entry = session.entry(session.index.leafId!) as CompactionEntry;
    assert.equal(entry.type, "compaction");
    assert.equal(entry.parentId, "s3000001");
    assert.equal(entry.id, value.entry!.id);
    assert.ok(entry.summary.startsWith(SUMMARY), entry.summary.slice(0, 200));
    const context = buildContextFromPath(session.pathTo());
    assert.equal(context.messages[0]!.role, "compactionSummary");
    assert.equal((context.messages[0] as { summary: string }).summary, entry.summary);
    // The views were refreshed from the file at once.
    assert.equal(internals.services.store.peek(path)?.index.size, 17);
    // Show Last Summary finds it on the branch.
    const shown = await run<{ entryId: string }>("piSessions.showSummary", { sessionPath: path });
    assert.equal(shown.value?.entryId, entry.id);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  test("presets from piSessions.presets; Select Compaction Preset… sets the default", async () => {
    const path = copySession(BRANCHED_ID);
    await setSetting("presets", { "loop-fast": { model: "loopback-anthropic/summarizer" } });
    try {
      const index = loopback.server.requests.length;
      const result = await run<CompactValue>("piSessions.compactSession", { sessionPath: path, preset: "loop-fast", focus: "", confirm: false });
      assert.equal(result.ok, true, result.message);
      assert.equal(result.value!.model, "loopback-anthropic/summarizer");
      assert.ok(loopback.server.requests.slice(index).every((request) => request.protocol === "anthropic"));
      const selected = await run<{ preset: string }>("piSessions.selectPreset", { preset: "loop-fast" });
      assert.equal(selected.value?.preset, "loop-fast");
      assert.equal(vscode.workspace.getConfiguration("piSessions").get("defaultPreset"), "loop-fast");
    } finally {
      await setSetting("presets", undefined);
      await setSetting("defaultPreset", undefined);
    }
  });

  test("cancel mid-stream aborts the request and writes nothing", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    respond = scenarios.slow(SUMMARY, 40, 150);
    const index = loopback.server.requests.length;
    const cancel = new vscode.CancellationTokenSource();
    const running = run<CompactValue>("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: false, token: cancel.token });
    const request = await loopback.server.waitForRequest(index);
    await request.waitForChunks(1);
    cancel.cancel();
    const result = await running;
    assert.equal(result.ok, false);
    assert.equal(result.reason, "cancelled");
    await request.closed;
    assert.equal(request.clientClosedEarly, true, "the HTTP request was aborted");
    assert.deepEqual(bytes(path), before);
  });

  test("a failing model (401) writes nothing and reports the error", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    respond = scenarios.httpError(401, "invalid api key");
    const result = await run("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: false });
    assert.equal(result.ok, false);
    assert.equal(result.reason, "error");
    assert.deepEqual(bytes(path), before);
  });

  test("Digest (no model): no request, the digest is written", async () => {
    const path = copySession(BRANCHED_ID);
    const index = loopback.server.requests.length;
    const result = await run<CompactValue>("piSessions.compactSession", { sessionPath: path, preset: "digest", focus: "", confirm: false });
    assert.equal(result.ok, true, result.message);
    assert.equal(result.value!.model, "digest");
    assert.equal(loopback.server.requests.length, index);
    const entry = openSessionSync(path).entry(result.value!.entry!.id) as CompactionEntry;
    assert.ok(entry.summary.startsWith(DIGEST_FIRST_LINE));
  });

  test("Compact up to here: the compaction hangs under the chosen entry", async () => {
    const path = copySession(BRANCHED_ID);
    const result = await run<CompactValue>("piSessions.compactUpToHere", { sessionPath: path, entryId: "a3000002", preset: "digest", focus: "", confirm: false });
    assert.equal(result.ok, true, result.message);
    assert.equal(openSessionSync(path).entry(result.value!.entry!.id)?.parentId, "a3000002");
  });

  test("the exported API: onBeforeCompact cancels (nothing written, no request); a hook's summary is written; onDidCompact fires", async () => {
    const path = copySession(BRANCHED_ID);
    const before = bytes(path);
    const index = loopback.server.requests.length;
    const cancelling = api.onBeforeCompact(() => ({ cancel: true }), "test-cancel");
    try {
      const result = await run<CompactValue>("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: false });
      assert.equal(result.ok, true);
      assert.equal(result.value!.outcome, "cancelled");
      assert.equal(result.value!.written, false);
    } finally {
      cancelling.dispose();
    }
    assert.deepEqual(bytes(path), before);
    assert.equal(loopback.server.requests.length, index);

    const supplying = api.onBeforeCompact((event) => ({
      compaction: { summary: "Summary from another extension.", firstKeptEntryId: event.preparation.firstKeptEntryId, tokensBefore: event.preparation.tokensBefore },
    }));
    const fired: string[] = [];
    const listening = api.onDidCompact((event) => fired.push(`${event.sessionPath}#${event.entry.id}#${event.model}`));
    try {
      const result = await run<CompactValue>("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: false });
      assert.equal(result.value!.written, true);
      const entry = openSessionSync(path).entry(result.value!.entry!.id) as CompactionEntry;
      assert.equal(entry.summary, "Summary from another extension.");
      assert.equal(entry.fromHook, true);
      assert.deepEqual(fired, [`${path}#${entry.id}#hook`]);
    } finally {
      supplying.dispose();
      listening.dispose();
    }
    assert.equal(loopback.server.requests.length, index, "the hook's summary needs no model call");
  });

  test("preview: Apply writes the edited text; Discard writes nothing", async () => {
    const panel = internals.panel.testing;
    const path = copySession(BRANCHED_ID);
    const applying = run<CompactValue>("piSessions.compactSession", { sessionPath: path, model: "loopback-openai/summarizer", focus: "", confirm: true });
    await waitFor("the preview panel", () => panel.panels().find((p) => p.phase === "awaiting" && p.state.sessionPath === path));
    await panel.post({ type: "apply", text: "Edited before applying." });
    const applied = await applying;
    assert.equal(applied.value?.written, true, applied.message);
    const entry = openSessionSync(path).entry(applied.value!.entry!.id) as CompactionEntry;
    assert.equal(entry.summary, "Edited before applying.");

    const path2 = copySession(BRANCHED_ID);
    const before = bytes(path2);
    const discarding = run<CompactValue>("piSessions.compactSession", { sessionPath: path2, model: "loopback-openai/summarizer", focus: "", confirm: true });
    await waitFor("the second preview", () => panel.panels().find((p) => p.phase === "awaiting" && p.state.sessionPath === path2));
    await panel.post({ type: "discard" });
    const discarded = await discarding;
    assert.equal(discarded.value?.outcome, "discarded");
    assert.deepEqual(bytes(path2), before);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  test("Set API Key…: a key in SecretStorage wins over auth.json's (pi's runtime override)", async () => {
    const path = copySession(BRANCHED_ID);
    await loopback.close();
    loopback = await startLoopback(() => respond, { "loopback-anthropic": { type: "api_key", key: "sk-wrong-key-in-auth-json" } });
    const stored = await run("piSessions.setApiKey", { provider: "loopback-anthropic", key: "sk-loopback-test-0123456789abcdef" });
    assert.equal(stored.ok, true);
    try {
      const index = loopback.server.requests.length;
      const result = await run<CompactValue>("piSessions.compactSession", { sessionPath: path, model: "loopback-anthropic/summarizer", focus: "", confirm: false });
      assert.equal(result.ok, true, result.message);
      assert.equal(loopback.server.requests[index]!.auth.matchesExpectedKey, true);
    } finally {
      await run("piSessions.setApiKey", { provider: "loopback-anthropic", key: "" });
    }
  });
});
