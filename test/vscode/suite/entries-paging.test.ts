// The Entries view of a long session (1,200 entries in turns of user,
// assistant, toolResult, assistant): the run folds into turns, the newest 50
// at the top behind "Load earlier…"; revealing an old entry pages it in; an
// append refreshes only the nodes it changed and the selection stays.
import * as assert from "node:assert/strict";
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { extensionInternals, run, scratchDir, waitFor } from "./helpers";
import { nodeIds, TURN_ROLES, turnLine } from "./turn-session-lines";

const TURNS = 300;

suite("Entries view: long sessions are paged and follow appends", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    path = join(scratchDir(), `long-${process.pid}.jsonl`);
    let text = JSON.stringify({ type: "session", version: 3, id: `long-${process.pid}`, timestamp: "2026-03-01T10:00:00.000Z", cwd: "/tmp" }) + "\n";
    for (let i = 0; i < TURNS * 4; i++) text += turnLine(`m${i}`, i === 0 ? null : `m${i - 1}`, TURN_ROLES[i % 4]!, `entry ${i}`);
    writeFileSync(path, text);
    // The list first: a session outside it is let go when the list is read.
    await internals.services.sessions.sessionGroups();
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
    await run("piSessions.openSession", { sessionPath: path });
  });

  suiteTeardown(() => {
    rmSync(path, { force: true });
  });

  test("the top level holds the newest 50 turns behind Load earlier…; each turn holds its entries", async () => {
    const tree = internals.services.entriesTree;
    const roots = await tree.getChildren();
    assert.equal(roots.length, 51);
    assert.equal(roots[0]!.kind, "more");
    const more = await tree.getTreeItem(roots[0]!);
    assert.equal(more.label, "Load earlier…");
    assert.equal(more.description, `${TURNS - 50} earlier turns`);
    assert.deepEqual(nodeIds(roots.slice(1, 3)), [`m${(TURNS - 50) * 4}`, `m${(TURNS - 49) * 4}`]);
    const turn = await tree.getTreeItem(roots[1]!);
    assert.equal(turn.label, `entry ${(TURNS - 50) * 4}`);
    assert.equal(turn.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const last = await tree.getTreeItem(roots[50]!);
    assert.equal(last.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, "the turn holding the leaf is open");
    assert.deepEqual(nodeIds(await tree.getChildren(roots[50])), [TURNS * 4 - 3, TURNS * 4 - 2, TURNS * 4 - 1].map((i) => `m${i}`));
  });

  test("Load earlier… adds one page of turns above", async () => {
    const tree = internals.services.entriesTree;
    const [more] = await tree.getChildren();
    await vscode.commands.executeCommand("piSessions.loadEarlierEntries", more);
    const roots = await tree.getChildren();
    assert.equal(roots.length, 101);
    assert.equal((await tree.getTreeItem(roots[0]!)).description, `${TURNS - 100} earlier turns`);
    assert.equal(roots[0], more, "the same node object");
  });

  test("revealing an entry far back pages in its turn and selects it", async () => {
    const model = (await internals.services.entriesTree.current())!;
    const target = model.entryNode("m9");
    // As revealEntry (the summary panel's links) does: page in, then reveal.
    await internals.services.entriesTree.pageIn(target);
    await internals.services.entriesView.reveal(target, { select: true, focus: true, expand: true });
    const selected = await waitFor("the selection", () => internals.services.entriesView.selection[0]);
    assert.equal(selected, target);
    const roots = await internals.services.entriesTree.getChildren();
    assert.ok(roots.includes(model.entryNode("m8")), "the turn of m9 is on the top level now");
  });

  test("an append refreshes its turn only (not the whole tree); the selection stays", async () => {
    const tree = internals.services.entriesTree;
    await run("piSessions.goToLeaf");
    const leafNode = await waitFor("the leaf selected", () => {
      const node = internals.services.entriesView.selection[0];
      return node?.kind === "entry" && node.entryId === `m${TURNS * 4 - 1}` && node;
    });
    const before = { ...tree.stats };
    const fired: unknown[] = [];
    const listener = tree.onDidChangeTreeData((e) => fired.push(e));
    try {
      appendFileSync(path, turnLine("n1", `m${TURNS * 4 - 1}`, "toolResult", "appended by pi"));
      await internals.services.store.refresh(path);
      await waitFor("the refresh", () => fired.length > 0);
      assert.equal(tree.stats.full, before.full, "no whole-tree refresh");
      const lastTurnHead = (await tree.current())!.entryNode(`m${TURNS * 4 - 4}`);
      assert.deepEqual(fired, [[leafNode, lastTurnHead]]);
      assert.ok(nodeIds(await tree.getChildren(lastTurnHead)).includes("n1"));
      assert.equal(internals.services.entriesView.selection[0], leafNode, "selection kept");
      const leafItem = await tree.getTreeItem(leafNode);
      assert.doesNotMatch(String(leafItem.description), /● leaf/);
    } finally {
      listener.dispose();
    }
  });
});
