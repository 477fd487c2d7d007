// All projects in the Sessions view: every folder under <agent-dir>/sessions/,
// grouped by the cwd the headers record (a cwd missing on this machine marked),
// forks under the session their parentSession names; sort by cost and the
// named-only filter from the title-bar commands.
import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import type { SessionsNode } from "../../../src/extension/views/sessions-view";
import { agentDir, extensionInternals, run, waitFor, workspaceDir } from "./helpers";

const OTHER_CWD = "/nonexistent/pi-sessions-other-project";

function sessionText(id: string, cost: number, extra: { parentSession?: string; name?: string } = {}): string {
  const t = "2026-02-10T10:00:00.000Z";
  const lines: unknown[] = [
    { type: "session", version: 3, id, timestamp: t, cwd: OTHER_CWD, ...(extra.parentSession ? { parentSession: extra.parentSession } : {}) },
    { type: "message", id: `${id}-u`, parentId: null, timestamp: t, message: { role: "user", content: `question of ${id}`, timestamp: 1 } },
    {
      type: "message",
      id: `${id}-a`,
      parentId: `${id}-u`,
      timestamp: t,
      message: { role: "assistant", content: [{ type: "text", text: "answer" }], provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, totalTokens: 120, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } }, stopReason: "stop", timestamp: 2 },
    },
  ];
  if (extra.name) lines.push({ type: "session_info", id: `${id}-n`, parentId: `${id}-a`, timestamp: t, name: extra.name });
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

function paths(nodes: SessionsNode[]): string[] {
  return nodes.map((n) => (n.kind === "session" ? n.path : n.id));
}

suite("Sessions view: all projects, forks, sort and filter", () => {
  let internals: Internals;
  const dir = join(agentDir(), "sessions", "--nonexistent-pi-sessions-other-project--");
  const cheap = join(dir, "2026-02-10T10-00-00-000Z_cheap.jsonl");
  const fork = join(dir, "2026-02-10T11-00-00-000Z_fork.jsonl");
  const dear = join(dir, "2026-02-10T12-00-00-000Z_dear.jsonl");

  suiteSetup(async () => {
    internals = await extensionInternals();
    mkdirSync(dir, { recursive: true });
    writeFileSync(cheap, sessionText("cheap", 0.25, { name: "The cheap one" }));
    writeFileSync(fork, sessionText("fork", 4.5, { parentSession: cheap }));
    writeFileSync(dear, sessionText("dear", 1.75));
  });

  suiteTeardown(async () => {
    await run("piSessions.filterSessions", []);
    await run("piSessions.sortSessions", "activity");
    await run("piSessions.showWorkspaceSessions");
    rmSync(dir, { recursive: true, force: true });
  });

  test("Show All Projects groups every project by its recorded cwd and marks a missing one", async () => {
    const result = await run<{ scope: string }>("piSessions.showAllProjects");
    assert.equal(result.value?.scope, "all");
    const tree = internals.services.sessionsTree;
    const groups = await waitFor("both projects", async () => {
      const all = await tree.getChildren();
      return all.length >= 2 && all;
    });
    const other = groups.find((g) => g.kind === "group" && g.group.cwd === OTHER_CWD);
    const mine = groups.find((g) => g.kind === "group" && g.group.cwd === workspaceDir());
    assert.ok(other && mine, "a group per recorded cwd");
    const item = await tree.getTreeItem(other);
    assert.equal(item.label, "pi-sessions-other-project");
    assert.match(String(item.description), /^3 sessions · folder missing · \/nonexistent\/pi-sessions-other-project$/);
    assert.equal((item.iconPath as vscode.ThemeIcon).id, "warning");
    assert.equal((await tree.getTreeItem(mine)).description?.toString().includes("folder missing"), false);
    assert.match(String(internals.services.sessionsView.description), /All projects/);
  });

  test("a fork is listed under the session it was forked from", async () => {
    const tree = internals.services.sessionsTree;
    const other = (await tree.getChildren()).find((g) => g.kind === "group" && g.group.cwd === OTHER_CWD)!;
    const rows = await waitFor("the rows read", async () => {
      const list = await tree.getChildren(other);
      return list.every((n) => n.kind === "session" && internals.services.sessions.factsOf(n.path)) && list;
    });
    assert.deepEqual(paths(rows).sort(), [cheap, dear].sort());
    const parent = rows.find((n) => n.kind === "session" && n.path === cheap)!;
    assert.equal((await tree.getTreeItem(parent)).collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    assert.deepEqual(paths(await tree.getChildren(parent)), [fork]);
    assert.equal(tree.getParent(tree.sessionNode(fork)), parent);
  });

  test("sort by cost: the dearest first; the row shows total tokens and cost", async () => {
    await run("piSessions.sortSessions", "cost");
    const tree = internals.services.sessionsTree;
    const other = (await tree.getChildren()).find((g) => g.kind === "group" && g.group.cwd === OTHER_CWD)!;
    assert.deepEqual(paths(await tree.getChildren(other)), [dear, cheap]);
    const item = await tree.getTreeItem(tree.sessionNode(dear));
    assert.match(String(item.description), /Σ 120 \$1\.75/);
    assert.match(String(internals.services.sessionsView.description), /by cost/);
  });

  test("filter named only: the other sessions leave the list", async () => {
    await run("piSessions.filterSessions", ["named"]);
    const tree = internals.services.sessionsTree;
    const groups = await tree.getChildren();
    const other = groups.find((g) => g.kind === "group" && g.group.cwd === OTHER_CWD)!;
    assert.deepEqual(paths(await tree.getChildren(other)), [cheap]);
    // The workspace's named fixture stays; its unnamed ones do not.
    const mine = groups.find((g) => g.kind === "group" && g.group.cwd === workspaceDir());
    if (mine) for (const row of await tree.getChildren(mine)) assert.ok(internals.services.sessions.factsOf(row.kind === "session" ? row.path : "")?.name);
  });
});
