// The Entries view of the branched fixture (see its `tree` by hand): a linear
// run u1000001…a1000003 shown flat; a1000003 is a branch point with two
// branches (u2000001… abandoned, with an entry type from a newer pi;
// u3000001… current, ending at the leaf s3000001); a label on a1000003.
import * as assert from "node:assert/strict";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import type { EntryNode } from "../../../src/extension/views/entries-model";
import { BRANCHED_ID, extensionInternals, fixturePath, run, waitFor } from "./helpers";

function ids(nodes: EntryNode[]): string[] {
  return nodes.map((node) => (node.kind === "entry" ? node.entryId : node.kind === "branch" ? `branch:${node.headId}` : "cycle"));
}

suite("Entries view @restricted: the tree of the selected session", () => {
  let internals: Internals;
  let path: string;

  suiteSetup(async () => {
    internals = await extensionInternals();
    path = fixturePath(BRANCHED_ID);
    await run("piSessions.openSession", { sessionPath: path });
  });

  teardown(async () => {
    await run("piSessions.filterEntries", "all");
  });

  test("the first linear run is flat at the top; the branch point has one node per branch", async () => {
    const tree = internals.services.entriesTree;
    const roots = await tree.getChildren();
    assert.deepEqual(ids(roots), ["u1000001", "a1000001", "t1000001", "a1000002", "t1000002", "a1000003"]);
    const branches = await tree.getChildren(roots[5]);
    assert.deepEqual(ids(branches), ["branch:u2000001", "branch:u3000001"]);
    assert.deepEqual(ids(await tree.getChildren(branches[0])), ["u2000001", "a2000001", "t2000001", "x2000001"]);
    assert.deepEqual(ids(await tree.getChildren(branches[1])), ["u3000001", "a3000001", "t3000001", "a3000002", "l3000001", "s3000001"]);
    for (const node of roots.slice(0, 5)) assert.deepEqual(await tree.getChildren(node), [], "run entries have no children");
  });

  test("items: the leaf is marked, labels shown, the branch holding the leaf is current, unknown entry types are visible", async () => {
    const tree = internals.services.entriesTree;
    const roots = await tree.getChildren();
    const [abandoned, current] = await tree.getChildren(roots[5]);
    const branchPoint = await tree.getTreeItem(roots[5]!);
    // The label comes first in the row, highlighted (not cut off at the end of a long row).
    const labelled = branchPoint.label as vscode.TreeItemLabel;
    assert.match(labelled.label, /^json-flag-done · /);
    assert.deepEqual(labelled.highlights, [[0, "json-flag-done".length]]);
    assert.doesNotMatch(String(branchPoint.description), /json-flag-done/);
    assert.match(String(branchPoint.description), /2 branches/);
    assert.equal(branchPoint.collapsibleState, vscode.TreeItemCollapsibleState.Expanded, "on the leaf's path");
    assert.equal(branchPoint.id, `${path}#a1000003`);
    const currentItem = await tree.getTreeItem(current!);
    assert.match(String(currentItem.description), /^current · 6 entries/);
    assert.equal(currentItem.collapsibleState, vscode.TreeItemCollapsibleState.Expanded);
    const abandonedItem = await tree.getTreeItem(abandoned!);
    assert.equal(abandonedItem.collapsibleState, vscode.TreeItemCollapsibleState.Collapsed);
    const abandonedRun = await tree.getChildren(abandoned);
    const unknown = await tree.getTreeItem(abandonedRun[3]!);
    assert.match(String(unknown.label), /unknown entry type "bookmark_v9"/);
    assert.match(String(unknown.description), /bookmark_v9/);
    const leafRun = await tree.getChildren(current);
    const leaf = await tree.getTreeItem(leafRun[5]!);
    assert.match(String(leaf.description), /● leaf/);
    assert.match(String(leaf.contextValue), /\bleaf\b/);
    const user = await tree.getTreeItem(roots[0]!);
    assert.equal(user.label, "Add a --json flag to the list command in src/list.ts so scripts can read the todo list.");
    const toolCall = await tree.getTreeItem(roots[1]!);
    assert.equal(toolCall.label, "Let me read the list command first. → read src/list.ts");
  });

  test("getParent walks back up: leaf → its branch → the branch point → top level", async () => {
    const tree = internals.services.entriesTree;
    const model = (await tree.current())!;
    const leaf = model.entryNode("s3000001");
    const branch = await tree.getParent(leaf);
    assert.deepEqual(branch && ids([branch]), ["branch:u3000001"]);
    const branchPoint = await tree.getParent(branch!);
    assert.deepEqual(branchPoint && ids([branchPoint]), ["a1000003"]);
    assert.equal(await tree.getParent(branchPoint!), undefined);
    assert.equal(await tree.getParent(model.entryNode("t1000001")), undefined);
    assert.deepEqual(ids([(await tree.getParent(model.entryNode("x2000001")))!]), ["branch:u2000001"]);
  });

  test("Go to Leaf reveals and selects the leaf through getParent", async () => {
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
    const result = await run<{ entryId: string }>("piSessions.goToLeaf");
    assert.equal(result.ok, true);
    assert.equal(result.value?.entryId, "s3000001");
    const selected = await waitFor("the selection", () => internals.services.entriesView.selection[0]);
    assert.deepEqual(ids([selected]), ["s3000001"]);
  });

  test("filters: user messages only keeps the branch point and the leaf; labelled entries", async () => {
    const tree = internals.services.entriesTree;
    const filtered = await run<{ filter: string }>("piSessions.filterEntries", "user");
    assert.equal(filtered.value?.filter, "user");
    const roots = await tree.getChildren();
    assert.deepEqual(ids(roots), ["u1000001", "a1000003"]);
    const [abandoned, current] = await tree.getChildren(roots[1]);
    assert.deepEqual(ids(await tree.getChildren(abandoned)), ["u2000001"]);
    assert.deepEqual(ids(await tree.getChildren(current)), ["u3000001", "s3000001"]);
    assert.match(String(internals.services.entriesView.description), /^User messages only · /);

    await run("piSessions.filterEntries", "labelled");
    assert.deepEqual(ids(await tree.getChildren()), ["a1000003"]);
    await run("piSessions.filterEntries", "no-tool-results");
    assert.deepEqual(ids(await tree.getChildren()), ["u1000001", "a1000001", "a1000002", "a1000003"]);
  });

  test("node ids are stable across a refresh (expansion survives)", async () => {
    const tree = internals.services.entriesTree;
    const before = (await tree.getTreeItem((await tree.getChildren())[5]!)).id;
    tree.refresh();
    const after = (await tree.getTreeItem((await tree.getChildren())[5]!)).id;
    assert.equal(after, before);
  });

  test("Copy Entry JSON and Open Raw Line", async () => {
    const copied = await run<{ text: string }>("piSessions.copyEntryJson", { sessionPath: path, entryId: "a1000003" });
    assert.equal(copied.ok, true);
    const parsed = JSON.parse(await vscode.env.clipboard.readText()) as { id: string; parentId: string };
    assert.deepEqual([parsed.id, parsed.parentId], ["a1000003", "t1000002"]);
    const opened = await run<{ line: number }>("piSessions.openRawLine", { sessionPath: path, entryId: "a1000003" });
    // Line 1 is the header; a1000003 is the sixth entry.
    assert.equal(opened.value?.line, 7);
    const editor = vscode.window.activeTextEditor!;
    assert.equal(editor.document.uri.fsPath, path);
    assert.equal(editor.selection.start.line, 6);
    assert.match(editor.document.getText(editor.selection), /"id":"a1000003"/);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });

  test("Show Context: what the model sees from an entry, as a read-only markdown document", async () => {
    const shown = await run<{ document: vscode.TextDocument }>("piSessions.showContext", { sessionPath: path, entryId: "a1000003" });
    assert.equal(shown.ok, true);
    const text = shown.value!.document.getText();
    assert.equal(shown.value!.document.languageId, "markdown");
    // u1000001 … a1000003: user, assistant, toolResult, assistant, toolResult, assistant.
    assert.deepEqual([...text.matchAll(/^## \d+\. (\w+)/gm)].map((m) => m[1]), ["user", "assistant", "toolResult", "assistant", "toolResult", "assistant"]);
    assert.match(text, /Add a --json flag/);
    await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
  });
});
