// The editor's session tools on oh-my-pi sessions, in the real extension host:
// an omp agent dir (piSessions.omp.agentDir) whose folder for the workspace
// holds omp sessions beside pi's own fixtures. The Sessions view lists both
// side by side, each row saying whose it is; Search Sessions finds text inside
// an omp session and opens the reader at the hit (and never names it by a
// session_info omp ignores); Sessions That Touched This File lists an omp
// session that edited the file with omp's hashline `edit` and through
// `details.resolvedPath`; and an omp session kept outside omp's folders (one
// omp recorded in custom-session-files) joins the workspace's list. Read-only,
// so it runs in Restricted Mode too. The trusted suite below: Clean Up offers
// an old empty omp session and moves it (and nothing else) to the trash;
// Rename Session's new title (the title slot) is what the view and search show.
import * as assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, utimesSync, writeFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { SearchResult } from "../../../src/core/search/search-index";
import { ompSessionDirForCwd } from "../../../src/core/discovery/omp-session-folder";
import { serializeTitleSlot } from "../../../src/core/session/format/omp-title-slot-serialize";
import { nodeSqlite } from "../../../src/core/fs/node-sqlite";
import type { Internals } from "../../../src/extension/internals";
import { agentDir, extensionInternals, fixturePath, LINEAR_ID, run, setSetting, waitFor, workspaceDir } from "./helpers";

const OMP_AGENT_DIR = (): string => join(agentDir(), "..", "omp-agent-tools");
const TOOLS_ID = "01a20a8b-1c2d-7e3f-8a4b-5c6d7e8f9a01";
const EMPTY_ID = "01a20a8b-1c2d-7e3f-8a4b-5c6d7e8f9a02";
const ELSEWHERE_ID = "01a20a8b-1c2d-7e3f-8a4b-5c6d7e8f9a03";
const HASHLINE_FILE = "omp-hashline.ts";
const RESOLVED_FILE = "omp-resolved.ts";

const at = (n: number) => new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString();
const usage = { input: 100, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 105, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function ompFile(id: string, cwd: string, title: string, body: Record<string, unknown>[], headerTime = at(0)): string {
  const header = { type: "session", version: 3, id, timestamp: headerTime, cwd };
  return serializeTitleSlot({ title, source: "user", updatedAt: headerTime }) + [header, ...body].map((l) => `${JSON.stringify(l)}\n`).join("");
}

/** An omp session that edits one file with a hashline patch and another through a path omp resolved (details.resolvedPath). */
function toolsSession(cwd: string): string {
  const patch = `*** Begin Patch\n[${HASHLINE_FILE}#3F2A]\nPUT 1.=1:\n+export const tokenizer = "fixed";\n*** End Patch`;
  let n = 0;
  let parent: string | null = null;
  const entry = (body: Record<string, unknown>): Record<string, unknown> => {
    n++;
    const id = `0f${String(n).padStart(6, "0")}`;
    const line = { id, parentId: parent, timestamp: at(n), ...body };
    parent = id;
    return line;
  };
  const message = (m: Record<string, unknown>) => entry({ type: "message", message: { timestamp: n + 1, ...m } });
  const call = (id: string, name: string, args: Record<string, unknown>) =>
    message({ role: "assistant", content: [{ type: "toolCall", id, name, arguments: args }], api: "openai-completions", provider: "fake", model: "fake-coder", usage, stopReason: "toolUse" });
  const result = (id: string, name: string, details?: Record<string, unknown>) =>
    message({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text: "ok" }], isError: false, ...(details ? { details } : {}) });
  return ompFile(TOOLS_ID, cwd, "Zanzibar parser", [
    entry({ type: "model_change", model: "fake/fake-coder" }),
    message({ role: "user", content: [{ type: "text", text: "Fix the zanzibar tokenizer, please" }], attribution: "user" }),
    call("call_1", "edit", { input: patch }),
    result("call_1", "edit"),
    call("call_2", "edit", { path: "src/../renamed-by-omp.ts", edits: [{ oldText: "a", newText: "b" }] }),
    result("call_2", "edit", { resolvedPath: join(cwd, RESOLVED_FILE) }),
    message({ role: "assistant", content: [{ type: "text", text: "Done: the zanzibar tokenizer reads hashlines now." }], api: "openai-completions", provider: "fake", model: "fake-coder", usage, stopReason: "stop" }),
    // pi's rename, which omp never reads: not the session's name for omp.
    entry({ type: "session_info", name: "a pi name omp ignores" }),
  ]);
}

function label(item: vscode.TreeItem): string {
  return typeof item.label === "string" ? item.label : (item.label?.label ?? "");
}

interface TouchRow {
  sessionPath: string;
  tool: string;
  ops: string;
}

let internals: Internals;
let toolsPath: string;
let emptyPath: string;
let elsewherePath: string;

async function setUpOmpSessions(): Promise<void> {
  internals = await extensionInternals();
  const ompDir = OMP_AGENT_DIR();
  const folder = ompSessionDirForCwd(workspaceDir(), join(ompDir, "sessions"));
  mkdirSync(folder, { recursive: true });
  toolsPath = join(folder, `2026-11-20T10-00-00-000Z_${TOOLS_ID}.jsonl`);
  writeFileSync(toolsPath, toolsSession(workspaceDir()));
  // Empty, and last written years ago: what Clean Up offers.
  emptyPath = join(folder, `2019-03-01T08-00-00-000Z_${EMPTY_ID}.jsonl`);
  writeFileSync(emptyPath, ompFile(EMPTY_ID, workspaceDir(), "", [], "2019-03-01T08:00:00.000Z"));
  utimesSync(emptyPath, new Date("2019-03-01T08:00:00.000Z"), new Date("2019-03-01T08:00:00.000Z"));
  // A session omp wrote with --session-dir, recorded as omp records it (custom-session-files/<hash>: the path).
  const custom = join(ompDir, "..", "omp-session-dir");
  mkdirSync(custom, { recursive: true });
  elsewherePath = join(custom, `2026-11-21T09-00-00-000Z_${ELSEWHERE_ID}.jsonl`);
  writeFileSync(elsewherePath, ompFile(ELSEWHERE_ID, workspaceDir(), "Kept in a session dir", [{ type: "message", id: "0e000001", parentId: null, timestamp: at(1), message: { role: "user", content: "hello from elsewhere", timestamp: 1 } }]));
  mkdirSync(join(ompDir, "custom-session-files"), { recursive: true });
  writeFileSync(join(ompDir, "custom-session-files", "a1b2c3d"), elsewherePath);
  for (const file of [HASHLINE_FILE, RESOLVED_FILE]) writeFileSync(join(workspaceDir(), file), "export const tokenizer = \"fixed\";\n");
  await setSetting("omp.agentDir", ompDir);
  await setSetting("omp.enabled", true);
  await waitFor("the omp sessions listed", async () => {
    await internals.services.sessions.rediscover();
    const paths = internals.services.sessions.allPaths();
    return paths.includes(toolsPath) && paths.includes(elsewherePath);
  });
}

async function tearDownOmpSessions(): Promise<void> {
  await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  rmSync(OMP_AGENT_DIR(), { recursive: true, force: true });
  rmSync(join(OMP_AGENT_DIR(), "..", "omp-session-dir"), { recursive: true, force: true });
  for (const file of [HASHLINE_FILE, RESOLVED_FILE]) rmSync(join(workspaceDir(), file), { force: true });
  await setSetting("omp.agentDir", undefined);
  await setSetting("omp.enabled", undefined);
  await internals.services.sessions.rediscover();
}

function row(path: string): vscode.TreeItem {
  return internals.services.sessionsTree.getTreeItem(internals.services.sessionsTree.sessionNode(path));
}

suite("oh-my-pi sessions in the editor's session tools @restricted: listed beside pi's, searched, files they touched", () => {
  suiteSetup(setUpOmpSessions);
  suiteTeardown(tearDownOmpSessions);

  test("the Sessions view lists omp's and pi's sessions side by side, each row saying whose it is", async () => {
    const pi = fixturePath(LINEAR_ID);
    const groups = await internals.services.sessions.sessionGroups();
    const workspace = groups.find((g) => g.files.includes(toolsPath));
    assert.ok(workspace, "the omp session is in a workspace group");
    assert.ok(workspace.files.includes(pi), "beside pi's session of the same workspace");
    const [ompRow, piRow] = await waitFor("both rows read", () => {
      const rows = [row(toolsPath), row(pi)];
      return rows.every((r) => r.description !== "reading…") && rows;
    });
    // omp names it by its title slot, never by the session_info pi would read.
    assert.equal(label(ompRow), "Zanzibar parser");
    assert.match(String(ompRow.description), /^omp · /);
    assert.doesNotMatch(String(piRow.description), /omp/);
    const tooltip = (item: vscode.TreeItem) => (item.tooltip instanceof vscode.MarkdownString ? item.tooltip.value : String(item.tooltip ?? ""));
    assert.match(tooltip(ompRow), /an oh-my-pi session \(omp 18\.3\.4/);
    assert.match(tooltip(piRow), /read as pi /);
    assert.doesNotMatch(tooltip(piRow), /oh-my-pi/);
  });

  test("Show All Projects groups omp's sessions (past their title slot) under the cwd their header records, the one kept elsewhere too", async () => {
    try {
      const result = await run<{ scope: string }>("piSessions.showAllProjects");
      assert.equal(result.value?.scope, "all");
      const groups = await internals.services.sessions.sessionGroups();
      const mine = groups.find((g) => g.cwd === workspaceDir());
      assert.ok(mine, "the workspace's cwd has a group");
      for (const path of [toolsPath, elsewherePath]) assert.ok(mine.files.includes(path), `${path} in the workspace's group`);
      const noCwd = groups.find((g) => g.cwd === "")?.files ?? [];
      assert.equal(noCwd.includes(toolsPath) || noCwd.includes(elsewherePath), false, "no omp session lands in \"(no cwd recorded)\"");
    } finally {
      await run("piSessions.showWorkspaceSessions");
    }
  });

  test("a session omp keeps outside its folders (recorded in custom-session-files) joins the workspace's list as omp's", async () => {
    assert.ok(internals.services.sessions.allPaths().includes(elsewherePath));
    const item = await waitFor("its row", () => (label(row(elsewherePath)) === "Kept in a session dir" ? row(elsewherePath) : undefined));
    assert.match(String(item.description), /^omp · /);
    assert.equal(internals.services.sessions.factsOf(elsewherePath)?.agent, "omp");
  });

  test("piSessions.sessionFolders: a folder's session files join the group of the cwd their header records, and leave with the setting", async () => {
    const folder = join(OMP_AGENT_DIR(), "..", "extra-session-folder");
    mkdirSync(folder, { recursive: true });
    const mine = join(folder, `2026-11-22T09-00-00-000Z_${"01a20a8b-1c2d-7e3f-8a4b-5c6d7e8f9a04"}.jsonl`);
    const other = join(folder, "other-project.jsonl");
    writeFileSync(mine, ompFile("01a20a8b-1c2d-7e3f-8a4b-5c6d7e8f9a04", workspaceDir(), "From an extra folder", []));
    writeFileSync(other, `${JSON.stringify({ type: "session", version: 3, id: "other", timestamp: at(0), cwd: "/somewhere/else" })}\n`);
    try {
      await setSetting("sessionFolders", [folder]);
      await waitFor("the extra folder's session listed", async () => {
        await internals.services.sessions.rediscover();
        return internals.services.sessions.allPaths().includes(mine);
      });
      assert.equal(internals.services.sessions.allPaths().includes(other), false, "another project's session is not this workspace's");
      await setSetting("sessionFolders", undefined);
      await waitFor("gone with the setting", async () => {
        await internals.services.sessions.rediscover();
        return !internals.services.sessions.allPaths().includes(mine);
      });
    } finally {
      await setSetting("sessionFolders", undefined);
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("Search Sessions finds text inside the omp session and opens the reader at the hit", async () => {
    const out = await run<{ result: SearchResult; opened: string }>("piSessions.searchSessions", { query: '"zanzibar tokenizer, please"' });
    assert.equal(out.ok, true, out.message);
    assert.deepEqual(out.value!.result.sessions.map((s) => s.path), [toolsPath]);
    assert.equal(out.value!.result.sessions[0]!.name, "Zanzibar parser");
    assert.deepEqual(out.value!.result.sessions[0]!.matches.map((m) => [m.entryId, m.role]), [["0f000002", "user"]]);
    assert.equal(out.value!.opened, toolsPath);
    await waitFor("the reader at the hit", () => internals.reader.testing.panels().find((p) => p.sessionPath === toolsPath && p.shownEntry === "0f000002"));
    // The name pi's session_info would give is not omp's name: nothing matches it by name.
    const byPiName = await run<{ result: SearchResult }>("piSessions.searchSessions", { query: '"a pi name omp ignores"' });
    assert.equal(byPiName.ok, false, "omp's session is not named by session_info");
  });

  test("Sessions That Touched This File lists the omp session for omp's hashline edit and for the path omp resolved", async () => {
    for (const file of [HASHLINE_FILE, RESOLVED_FILE]) {
      const rows = await waitFor(`rows for ${file}`, async () => {
        const result = await run<{ rows: TouchRow[] }>("piSessions.sessionsTouchingFile", { path: join(workspaceDir(), file), list: true });
        return result.ok && result.value!.rows.length > 0 ? result.value!.rows : undefined;
      });
      assert.deepEqual(rows.map((r) => [r.sessionPath, r.tool, r.ops]), [[toolsPath, "edit", "E"]], file);
    }
  });
});

suite("oh-my-pi sessions: Clean Up and Rename Session (trusted workspace)", () => {
  suiteSetup(async function () {
    if (!vscode.workspace.isTrusted) this.skip();
    await setUpOmpSessions();
  });
  suiteTeardown(async function () {
    if (vscode.workspace.isTrusted) await tearDownOmpSessions();
  });

  test("Clean Up offers the old empty omp session and moves it, and nothing else, to the trash; it leaves the view", async () => {
    await waitFor("the empty session's row", () => internals.services.sessions.factsOf(emptyPath));
    const offered = await run<{ proposed: string[] }>("piSessions.cleanUp", { empty: true, dryRun: true });
    assert.equal(offered.ok, true, offered.message);
    assert.ok(offered.value!.proposed.includes(emptyPath), "an empty omp session is offered");
    assert.equal(offered.value!.proposed.includes(toolsPath), false);
    const others = internals.services.sessions.allPaths().filter((p) => p !== emptyPath);
    const before = new Map(others.map((p) => [p, readFileSync(p)]));
    // Unused for more than 2000 days: only the 2019 session.
    const moved = await run<{ proposed: string[]; moved: { path: string }[] }>("piSessions.cleanUp", { olderThanDays: 2000, selectAll: true, confirmed: true });
    assert.equal(moved.ok, true, moved.message);
    assert.deepEqual(moved.value!.moved.map((m) => m.path), [emptyPath]);
    assert.equal(existsSync(emptyPath), false);
    await waitFor("the session gone from the view", async () => {
      await internals.services.sessions.rediscover();
      return !internals.services.sessions.allPaths().includes(emptyPath);
    });
    for (const [path, bytes] of before) assert.deepEqual(readFileSync(path), bytes, `${path} untouched`);
  });

  test("Rename Session: the new title (omp's title slot) is the row's name and what search names it by; omp's welcome-screen title cache is updated (node:sqlite in this host)", async () => {
    // omp's history.db as omp makes it (its session-index.ts DDL), caching the name omp gave the session.
    const sqlite = nodeSqlite();
    assert.ok(sqlite, `this extension host (Node ${process.version}) has node:sqlite`);
    const history = join(OMP_AGENT_DIR(), "history.db");
    const db = new sqlite.DatabaseSync(history);
    db.prepare("CREATE TABLE session_titles (session_id TEXT PRIMARY KEY, title TEXT NOT NULL, updated_at INTEGER NOT NULL DEFAULT (CAST(strftime('%s','now') AS INTEGER)))").run();
    db.prepare("INSERT INTO session_titles (session_id, title) VALUES (?, ?)").run(TOOLS_ID, "Hashline tokenizer");
    db.close();
    const renamed = await run<{ name: string; notice?: string }>("piSessions.renameSession", { sessionPath: toolsPath, name: "Hashline tokenizer, renamed" });
    assert.equal(renamed.ok, true, renamed.message);
    assert.equal(renamed.value!.notice, undefined, "nothing stale to tell about");
    const after = new sqlite.DatabaseSync(history, { readOnly: true });
    assert.deepEqual({ ...(after.prepare("SELECT title FROM session_titles WHERE session_id = ?").get(TOOLS_ID) as object) }, { title: "Hashline tokenizer, renamed" });
    after.close();
    const slot = JSON.parse(readFileSync(toolsPath).subarray(0, 256).toString("utf8")) as { title: string };
    assert.equal(slot.title, "Hashline tokenizer, renamed");
    await waitFor("the renamed row", () => label(row(toolsPath)) === "Hashline tokenizer, renamed");
    const out = await run<{ result: SearchResult }>("piSessions.searchSessions", { query: '"hashline tokenizer, renamed"' });
    assert.equal(out.ok, true, out.message);
    assert.equal(out.value!.result.sessions[0]!.path, toolsPath);
    assert.ok(out.value!.result.sessions[0]!.fields.includes("name"));
  });
});
