// oh-my-pi sessions in VS Code: an omp session in omp's folder for the
// workspace is listed in the Sessions view beside pi's, its tooltip saying it
// is an oh-my-pi session and its title the one omp shows (the title slot);
// Rename Session rewrites omp's 256-byte title slot in place and appends omp's
// title_change; Set Label appends omp's label entry through omp's append
// protocol (no publish lock left behind); Compact Session writes omp's own soft
// compaction (against the loopback model), also with the session's own model
// when only omp's models.yml knows it (no pi models.json); with
// piSessions.omp.enabled off, it is not listed.
import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { ompSessionDirForCwd } from "../../../src/core/discovery/omp-session-folder";
import { serializeTitleSlot } from "../../../src/core/session/format/omp-title-slot-serialize";
import type { Internals } from "../../../src/extension/internals";
import { scenarios, startModelServer } from "../../support/model-server";
import { agentDir, extensionInternals, run, setSetting, startLoopback, waitFor, workspaceDir } from "./helpers";

const OMP_AGENT_DIR = (): string => join(agentDir(), "..", "omp-agent");

function ompSessionText(cwd: string, model = "fake/fake-coder"): string {
  const [provider, id] = model.split("/") as [string, string];
  const at = (s: number) => `2026-11-20T10:00:0${s}.000Z`;
  const lines = [
    { type: "session", version: 3, id: "01a20a8a-7a5c-7328-b37d-344f0d3119aa", timestamp: at(0), cwd },
    { type: "model_change", id: "0e000001", parentId: null, timestamp: at(0), model },
    { type: "thinking_level_change", id: "0e000002", parentId: "0e000001", timestamp: at(0), thinkingLevel: null, configured: null },
    { type: "message", id: "0e000003", parentId: "0e000002", timestamp: at(1), message: { role: "user", content: [{ type: "text", text: "Hello from omp" }], attribution: "user", timestamp: 1 } },
    {
      type: "message",
      id: "0e000004",
      parentId: "0e000003",
      timestamp: at(2),
      message: { role: "assistant", content: [{ type: "text", text: "Hi." }], api: "openai-completions", provider, model: id, usage: { input: 100, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 105, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 },
    },
    { type: "custom", id: "0e000005", parentId: "0e000004", timestamp: at(3), customType: "session_exit", data: { reason: "dispose", kind: "normal", recordedAt: 3 } },
  ];
  return serializeTitleSlot({ title: "omp's own title", source: "user", updatedAt: at(0) }) + lines.map((l) => `${JSON.stringify(l)}\n`).join("");
}

function label(item: vscode.TreeItem): string {
  return typeof item.label === "string" ? item.label : (item.label?.label ?? "");
}

suite("oh-my-pi sessions in the Sessions view, renamed and labelled the omp way (trusted workspace)", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    const dir = ompSessionDirForCwd(workspaceDir(), join(OMP_AGENT_DIR(), "sessions"));
    mkdirSync(dir, { recursive: true });
    path = join(dir, "2026-11-20T10-00-00-000Z_01a20a8a-7a5c-7328-b37d-344f0d3119aa.jsonl");
    writeFileSync(path, ompSessionText(workspaceDir()));
    await setSetting("omp.agentDir", OMP_AGENT_DIR());
    await setSetting("omp.enabled", true);
  });

  suiteTeardown(async () => {
    rmSync(OMP_AGENT_DIR(), { recursive: true, force: true });
    await setSetting("omp.agentDir", undefined);
    await setSetting("omp.enabled", undefined);
    await internals.services.sessions.rediscover();
  });

  test("listed beside pi's sessions, named by omp's title slot, its tooltip saying it is an oh-my-pi session", async () => {
    await waitFor("the omp session in the list", async () => {
      await internals.services.sessions.rediscover();
      return internals.services.sessions.allPaths().includes(path);
    });
    const item = await waitFor("the omp session's row", () => {
      const row = internals.services.sessionsTree.getTreeItem(internals.services.sessionsTree.sessionNode(path));
      return label(row) === "omp's own title" ? row : undefined;
    });
    const tooltip = (item.tooltip as vscode.MarkdownString).value;
    assert.match(tooltip, /oh-my-pi session \(omp 18\.3\.4/);
    assert.doesNotMatch(tooltip, /read as pi/);
    assert.equal(internals.services.sessions.factsOf(path)?.agent, "omp");
  });

  test("Rename Session: the title slot rewritten in place (256 bytes), a title_change appended, the row renamed", async () => {
    const before = readFileSync(path);
    const renamed = await run<{ name: string }>("piSessions.renameSession", { sessionPath: path, name: "Renamed in VS Code" });
    assert.equal(renamed.ok, true, renamed.message);
    const after = readFileSync(path);
    const slot = JSON.parse(after.subarray(0, 256).toString("utf8")) as { type: string; title: string; source: string };
    assert.deepEqual([slot.type, slot.title, slot.source], ["title", "Renamed in VS Code", "user"]);
    assert.equal(after.subarray(0, 256).at(-1), 0x0a);
    // Everything after the slot is as it was, then one title_change line.
    assert.deepEqual(after.subarray(256, before.length), before.subarray(256));
    const last = JSON.parse(after.subarray(before.length).toString("utf8")) as Record<string, unknown>;
    assert.deepEqual([last.type, last.title, last.source, last.previousTitle, last.parentId], ["title_change", "Renamed in VS Code", "user", "omp's own title", "0e000005"]);
    await waitFor("the renamed row", () => label(internals.services.sessionsTree.getTreeItem(internals.services.sessionsTree.sessionNode(path))) === "Renamed in VS Code");
  });

  test("Set Label: omp's label entry appended (the file ends with a newline, no lock left)", async () => {
    const before = readFileSync(path);
    const labelled = await run("piSessions.setLabel", { sessionPath: path, entryId: "0e000003", label: "greeting" });
    assert.equal(labelled.ok, true, labelled.message);
    const after = readFileSync(path);
    assert.deepEqual(after.subarray(0, before.length), before);
    assert.equal(after.at(-1), 0x0a);
    const entry = JSON.parse(after.subarray(before.length).toString("utf8")) as Record<string, unknown>;
    assert.deepEqual([entry.type, entry.targetId, entry.label], ["label", "0e000003", "greeting"]);
    assert.equal(existsSync(join(path, "..", `.${path.split("/").pop()}.lock`)), false);
  });

  test("Compact Session: omp's own soft compaction (omp's prompts, the short summary of the kept turn; method soft, fromExtension false)", async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const loopback = await startLoopback((r) => scenarios.success(r.promptText.includes("pull request description") ? "I greeted the user." : "## Goal\nGreet."));
    const copy = join(path, "..", "2026-11-20T10-00-00-000Z_01a20a8a-7a5c-7328-b37d-344f0d3119ab.jsonl");
    writeFileSync(copy, ompSessionText(workspaceDir()));
    writeFileSync(join(OMP_AGENT_DIR(), "config.yml"), "compaction:\n  keepRecentTokens: 10\n");
    try {
      const before = loopback.server.requests.length;
      const result = await run<{ written: boolean; entry: Record<string, unknown> | null }>("piSessions.compactSession", { sessionPath: copy, model: "loopback-openai/summarizer", focus: "", confirm: false });
      assert.equal(result.ok, true, result.message);
      const entry = result.value!.entry!;
      assert.equal(result.value!.written, true);
      // A split turn with nothing before it: the turn-prefix call (omp's prompt) and the short summary.
      const prompts = loopback.server.requests.slice(before).map((r) => r.promptText);
      assert.equal(prompts.length, 2);
      assert.ok(prompts.some((p) => p.includes("Turn prefix too large; recent-work suffix retained.")));
      assert.ok(prompts.every((p) => p.startsWith("Summarize user–AI coding-assistant conversations")));
      assert.match(String(entry.summary), /^No prior history\.\n\n---\n\n\*\*Turn Context \(split turn\):\*\*\n\n## Goal\nGreet\.$/);
      assert.deepEqual([entry.shortSummary, entry.method, entry.fromExtension, entry.firstKeptEntryId], ["I greeted the user.", "soft", false, "0e000004"]);
      assert.deepEqual(entry.details, { readFiles: [], modifiedFiles: [] });
    } finally {
      rmSync(join(OMP_AGENT_DIR(), "config.yml"), { force: true });
      rmSync(copy, { force: true });
      await loopback.close();
    }
  });

  test("Compact Session with the session's own model, known only from omp's models.yml (no pi models.json): omp's soft compaction through that server", async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    const key = "sk-omp-models-yml-in-vscode";
    const server = await startModelServer({
      expectedKey: key,
      respond: (r) => (!r.auth.matchesExpectedKey ? scenarios.httpError(401, "invalid key") : scenarios.success(r.promptText.includes("pull request description") ? "I greeted the user." : "## Goal\nGreet.")),
    });
    const copy = join(path, "..", "2026-11-20T10-00-00-000Z_01a20a8a-7a5c-7328-b37d-344f0d3119ac.jsonl");
    writeFileSync(copy, ompSessionText(workspaceDir(), "omp-loop/coder"));
    const modelsYml = ["providers:", "  omp-loop:", `    baseUrl: ${server.openaiBaseUrl}`, `    apiKey: ${key}`, "    api: openai-completions", "    models:", "      - id: coder", "        contextWindow: 64000", "        maxTokens: 4096", ""].join("\n");
    writeFileSync(join(OMP_AGENT_DIR(), "models.yml"), modelsYml);
    writeFileSync(join(OMP_AGENT_DIR(), "config.yml"), "compaction:\n  keepRecentTokens: 10\n");
    try {
      assert.equal(existsSync(join(agentDir(), "models.json")), false);
      const result = await run<{ written: boolean; model: string; digest: boolean; entry: Record<string, unknown> | null }>("piSessions.compactSession", { sessionPath: copy, preset: "current", focus: "", confirm: false });
      assert.equal(result.ok, true, result.message);
      assert.deepEqual([result.value!.written, result.value!.model, result.value!.digest], [true, "omp-loop/coder", false]);
      assert.ok(server.requests.length >= 2);
      assert.ok(server.requests.every((r) => r.auth.matchesExpectedKey && (r.body as { model?: string }).model === "coder"));
      const entry = result.value!.entry!;
      assert.deepEqual([entry.shortSummary, entry.method, entry.fromExtension], ["I greeted the user.", "soft", false]);
    } finally {
      rmSync(join(OMP_AGENT_DIR(), "models.yml"), { force: true });
      rmSync(join(OMP_AGENT_DIR(), "config.yml"), { force: true });
      rmSync(copy, { force: true });
      await server.close();
    }
  });

  test("with piSessions.omp.enabled off, omp's sessions are not listed", async () => {
    await setSetting("omp.enabled", false);
    await waitFor("the omp session gone from the list", async () => {
      await internals.services.sessions.rediscover();
      return !internals.services.sessions.allPaths().includes(path);
    });
    await setSetting("omp.enabled", true);
  });
});
