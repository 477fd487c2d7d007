// The Entries view's node model (src/extension/views/entries-model.ts, no
// vscode): on random trees (dangling and self parents, cycles, odd timestamps),
// walking roots → children visits the entries in the order of pi's getTree
// (depth first, children in pi's order) with each entry exactly once, linear
// runs flat under branch nodes; entries in parent cycles are in their own
// group; getParent leads back along the same walk (what reveal() needs).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open-session.js";
import { EntriesModel, type EntryNode } from "../../../src/extension/views/entries-model.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-entries-model-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IDS = Array.from({ length: 14 }, (_, i) => `e${i}`);
const treeFile = fc
  .array(
    fc.record({
      parentId: fc.oneof(fc.constantFrom(...IDS), fc.constant(null), fc.constant("missing")),
      timestamp: fc.constantFrom("2025-01-01T00:00:01.000Z", "2025-01-01T00:00:02.000Z", "not a date"),
      role: fc.constantFrom("user", "assistant", "toolResult"),
    }),
    { maxLength: IDS.length },
  )
  .map((entries) => {
    const header = { type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
    const lines = entries.map((e, i) => ({ type: "message", id: IDS[i], parentId: e.parentId, timestamp: e.timestamp, message: { role: e.role, content: "x", timestamp: 1 } }));
    return [header, ...lines].map((l) => JSON.stringify(l)).join("\n") + "\n";
  });

interface PiNode {
  entry: { id: string };
  children: PiNode[];
}

function piPreorder(nodes: readonly PiNode[], out: string[] = []): string[] {
  for (const node of nodes) {
    out.push(node.entry.id);
    piPreorder(node.children, out);
  }
  return out;
}

/** Walks the model; checks parent() of every node on the way. */
function walk(model: EntriesModel): { entries: string[]; cycle: string[]; maxDepth: number } {
  const entries: string[] = [];
  const cycle: string[] = [];
  let maxDepth = 0;
  const visit = (nodes: EntryNode[], parent: EntryNode | undefined, depth: number, inCycle: boolean): void => {
    maxDepth = Math.max(maxDepth, depth);
    for (const node of nodes) {
      expect(model.parent(node)).toBe(parent);
      if (node.kind === "entry") (inCycle ? cycle : entries).push(node.entryId);
      const children = model.children(node);
      expect(model.hasChildren(node)).toBe(node.kind !== "entry" || children.length > 0);
      if (children.length > 0) visit(children, node, depth + 1, inCycle || node.kind === "cycle");
    }
  };
  visit(model.roots(), undefined, 0, false);
  return { entries, cycle, maxDepth };
}

describe("EntriesModel", () => {
  it("visits pi's getTree in order, each entry once, cycles apart, and getParent retraces the walk", () => {
    let n = 0;
    fc.assert(
      fc.property(treeFile, (text) => {
        const path = join(dir, `tree-${n++}.jsonl`);
        writeFileSync(path, text);
        const session = openSessionSync(path);
        const model = new EntriesModel(session, "all");
        const { entries, cycle } = walk(model);
        const pi = piPreorder(SessionManager.open(path).getTree() as unknown as PiNode[]);
        expect(entries).toEqual(pi);
        expect(new Set([...entries, ...cycle]).size).toBe(session.index.size);
        expect(cycle.sort()).toEqual(session.index.unreachable.map((m) => m.id).sort());
      }),
      { numRuns: 300 },
    );
  });

  it("a long linear session stays flat: one level, however long", () => {
    const lines = [JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })];
    for (let i = 0; i < 3000; i++) {
      lines.push(JSON.stringify({ type: "message", id: `m${i}`, parentId: i === 0 ? null : `m${i - 1}`, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "x", timestamp: 1 } }));
    }
    const path = join(dir, "linear.jsonl");
    writeFileSync(path, lines.join("\n") + "\n");
    const model = new EntriesModel(openSessionSync(path), "all");
    const { entries, maxDepth } = walk(model);
    expect(entries).toHaveLength(3000);
    expect(maxDepth).toBe(0);
    expect(model.parent(model.entryNode("m2999"))).toBeUndefined();
  });

  it("filters keep branch points and the leaf so every branch stays reachable", () => {
    // a(user) → b(assistant) → c(toolResult, branch point) → d(user) | e(toolResult) → f(assistant, leaf)
    const rows: [string, string | null, string][] = [["a", null, "user"], ["b", "a", "assistant"], ["c", "b", "toolResult"], ["d", "c", "user"], ["e", "c", "toolResult"], ["f", "e", "assistant"]];
    const lines = [JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" })];
    rows.forEach(([id, parentId, role], i) => lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: `2025-01-01T00:00:0${i}.000Z`, message: { role, content: "x", timestamp: 1 } })));
    const path = join(dir, "filters.jsonl");
    writeFileSync(path, lines.join("\n") + "\n");
    const session = openSessionSync(path);
    const ids = (model: EntriesModel): string[] => walk(model).entries;
    expect(ids(new EntriesModel(session, "user"))).toEqual(["a", "c", "d", "f"]);
    expect(ids(new EntriesModel(session, "no-tool-results"))).toEqual(["a", "b", "c", "d", "f"]);
    expect(ids(new EntriesModel(session, "labelled"))).toEqual(["c", "f"]);
  });
});
