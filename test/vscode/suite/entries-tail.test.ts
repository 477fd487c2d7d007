// The Entries view of a big session (over 8 MB) not indexed yet: its first
// rows come from the file's tail (the newest turns of the branch, labels
// included), the whole file is indexed right after, and the view then holds
// the full index's rows — the same node objects, so expansion and selection
// stay — with the true count of earlier turns.
import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Internals } from "../../../src/extension/internals";
import { EntriesModel } from "../../../src/extension/views/entries-model";
import { TAIL_FIRST_BYTES } from "../../../src/extension/views/tail-session";
import { openSessionSync } from "../../../src/core/session/open/open-session";
import { extensionInternals, scratchDir, waitFor } from "./helpers";
import { nodeIds, TURN_ROLES, turnLine } from "./turn-session-lines";

const FILLER = "x".repeat(2000);

suite("Entries view: a big session shows its tail first, then its index", () => {
  let internals: Internals;
  let path: string;
  let count = 0;
  let labelTarget = "";

  suiteSetup(async () => {
    internals = await extensionInternals();
    path = join(scratchDir(), `big-tail-${process.pid}.jsonl`);
    const parts = [JSON.stringify({ type: "session", version: 3, id: `big-tail-${process.pid}`, timestamp: "2026-03-01T10:00:00.000Z", cwd: "/tmp" }) + "\n"];
    let size = parts[0]!.length;
    let parent: string | null = null;
    while (size < TAIL_FIRST_BYTES + 2 * 1024 * 1024) {
      const id = `m${count}`;
      const text = turnLine(id, parent, TURN_ROLES[count % 4]!, `entry ${count} ${FILLER}`);
      parts.push(text);
      size += text.length;
      parent = id;
      count++;
    }
    // A label on the last user message (pi appends it at the leaf), then one more turn.
    labelTarget = `m${count - 1 - ((count - 1) % 4)}`;
    parts.push(JSON.stringify({ type: "label", id: "lab1", parentId: parent, timestamp: "2026-03-01T10:00:00.000Z", targetId: labelTarget, label: "tail label" }) + "\n");
    parent = "lab1";
    for (let i = 0; i < 4; i++, count++) {
      parts.push(turnLine(`m${count}`, parent, TURN_ROLES[count % 4]!, `entry ${count}`));
      parent = `m${count}`;
    }
    writeFileSync(path, parts.join(""));
    await internals.services.sessions.sessionGroups();
    await vscode.commands.executeCommand("workbench.view.extension.piSessions");
  });

  suiteTeardown(() => {
    internals.services.entriesTree.show(undefined);
    rmSync(path, { force: true });
  });

  test("the first rows are the branch's newest turns, from the tail; after the index, the same nodes and the full count", async () => {
    const tree = internals.services.entriesTree;
    assert.equal(internals.services.store.peek(path), undefined, "not indexed before");
    tree.show(path);
    const first = await tree.getChildren();
    assert.equal(internals.services.store.peek(path), undefined, "the first rows did not wait for the index");
    const full = new EntriesModel(openSessionSync(path), "all");
    const expected = full.roots();
    assert.equal(first.length, 51);
    assert.deepEqual(nodeIds(first.slice(1)), nodeIds(expected.slice(1)), "the newest 50 turns, as the full index has them");
    const leafTurn = first[first.length - 1]!;
    assert.deepEqual(nodeIds(await tree.getChildren(leafTurn)), nodeIds(full.children(expected[expected.length - 1]!)));
    const labelled = first.find((n) => n.kind === "entry" && n.entryId === labelTarget);
    assert.ok(labelled, "the labelled turn is shown");
    assert.match(((await tree.getTreeItem(labelled)).label as vscode.TreeItemLabel).label, /^tail label · /);
    const provisionalMore = await tree.getTreeItem(first[0]!);
    assert.equal(provisionalMore.label, "Load earlier…");

    await waitFor("the session indexed", () => internals.services.store.peek(path) !== undefined, 60_000);
    const hidden = expected[0]!.kind === "more" ? expected[0]!.hidden : -1;
    assert.ok(hidden > 50, "the full index knows more earlier turns than the tail");
    await waitFor("the view refreshed from the index", async () => (await tree.getTreeItem(first[0]!)).description === `${hidden} earlier turns` || undefined, 10_000);
    const after = await tree.getChildren();
    assert.deepEqual(nodeIds(after), nodeIds(expected));
    for (let i = 0; i < after.length; i++) assert.equal(after[i], first[i], `row ${i} is the same node object`);
  });
});
