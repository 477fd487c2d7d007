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
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { appendFileSync } from "node:fs";
import { openSessionSync, refreshSession } from "../../../src/core/session/open/open-session.js";
import { ENTRY_PAGE, FLAT_LIMIT, TURN_PAGE } from "../../../src/extension/views/entries-layout.js";
import { EntriesModel, type EntryFilter, type EntryNode } from "../../../src/extension/views/entries-model.js";

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

/** A container's children with every "Load earlier…" followed (its parent is the container). */
function allChildren(model: EntriesModel, parent: EntryNode | undefined): EntryNode[] {
  for (;;) {
    const nodes = parent ? model.children(parent) : model.roots();
    const more = nodes.find((n) => n.kind === "more");
    if (!more || more.kind !== "more") return nodes;
    expect(nodes.indexOf(more)).toBe(0);
    expect(model.parent(more)).toBe(parent);
    expect(model.hasChildren(more)).toBe(false);
    model.loadEarlier(more);
  }
}

/** Walks the model (every page); checks parent() of every node on the way and that no list is longer than a few hundred rows. */
function walk(model: EntriesModel): { entries: string[]; cycle: string[]; maxDepth: number; longest: number } {
  const entries: string[] = [];
  const cycle: string[] = [];
  let maxDepth = 0;
  let longest = 0;
  const visit = (parent: EntryNode | undefined, depth: number, inCycle: boolean): void => {
    longest = Math.max(longest, (parent ? model.children(parent) : model.roots()).length);
    const nodes = allChildren(model, parent);
    maxDepth = Math.max(maxDepth, depth);
    for (const node of nodes) {
      expect(model.parent(node)).toBe(parent);
      if (node.kind === "entry") (inCycle ? cycle : entries).push(node.entryId);
      const children = model.children(node);
      expect(model.hasChildren(node)).toBe(node.kind !== "entry" || children.length > 0);
      if (children.length > 0) visit(node, depth + 1, inCycle || node.kind === "cycle");
    }
  };
  visit(undefined, 0, false);
  return { entries, cycle, maxDepth, longest };
}

/** What a walk sees (page sizes aside: a walk loads every page). */
function shape(model: EntriesModel): { entries: string[]; cycle: string[]; maxDepth: number } {
  const { entries, cycle, maxDepth } = walk(model);
  return { entries, cycle, maxDepth };
}

const HEADER = JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" });
function messageLine(id: string, parentId: string | null, role: string): string {
  return JSON.stringify({ type: "message", id, parentId, timestamp: "2025-01-01T00:00:01.000Z", message: { role, content: "x", timestamp: 1 } });
}
/** Turns of user, assistant, toolResult, assistant: m0…m(n-1). */
function turnsFile(name: string, entries: number): string {
  const roles = ["user", "assistant", "toolResult", "assistant"];
  const lines = [HEADER];
  for (let i = 0; i < entries; i++) lines.push(messageLine(`m${i}`, i === 0 ? null : `m${i - 1}`, roles[i % 4]!));
  const path = join(dir, name);
  writeFileSync(path, lines.join("\n") + "\n");
  return path;
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

  it("a linear run up to FLAT_LIMIT rows stays flat", () => {
    const model = new EntriesModel(openSessionSync(turnsFile("flat.jsonl", FLAT_LIMIT)), "all");
    const { entries, maxDepth } = walk(model);
    expect(entries).toHaveLength(FLAT_LIMIT);
    expect(maxDepth).toBe(0);
    expect(model.parent(model.entryNode(`m${FLAT_LIMIT - 1}`))).toBeUndefined();
  });

  it("a longer run folds into turns, the newest TURN_PAGE at the top behind Load earlier…; every entry once, in order", () => {
    const model = new EntriesModel(openSessionSync(turnsFile("long.jsonl", 3000)), "all");
    const roots = model.roots();
    expect(roots).toHaveLength(TURN_PAGE + 1);
    expect(roots[0]).toMatchObject({ kind: "more", hidden: 750 - TURN_PAGE, unit: "turn" });
    expect(roots.slice(1).map((n) => n.kind === "entry" && n.entryId)).toEqual(Array.from({ length: TURN_PAGE }, (_, i) => `m${(750 - TURN_PAGE + i) * 4}`));
    expect(model.children(roots[1]!).map((n) => n.kind === "entry" && n.entryId)).toEqual([2801, 2802, 2803].map((i) => `m${i}`));
    const { entries, maxDepth, longest } = walk(model);
    expect(entries).toEqual(Array.from({ length: 3000 }, (_, i) => `m${i}`));
    expect(maxDepth).toBe(1);
    expect(longest).toBeLessThanOrEqual(TURN_PAGE + 1);
  });

  it("a turn longer than ENTRY_PAGE is paged too", () => {
    const lines = [HEADER, messageLine("u", null, "user")];
    const count = FLAT_LIMIT + ENTRY_PAGE + 10;
    for (let i = 0; i < count; i++) lines.push(messageLine(`t${i}`, i === 0 ? "u" : `t${i - 1}`, "toolResult"));
    const path = join(dir, "long-turn.jsonl");
    writeFileSync(path, lines.join("\n") + "\n");
    const model = new EntriesModel(openSessionSync(path), "all");
    const [turn] = model.roots();
    const members = model.children(turn!);
    expect(members).toHaveLength(ENTRY_PAGE + 1);
    expect(members[0]).toMatchObject({ kind: "more", hidden: count - ENTRY_PAGE, unit: "entry" });
    expect(walk(model).entries).toHaveLength(count + 1);
  });

  it("getParent pages in an entry that Load earlier… hides (what reveal() needs), naming the container", () => {
    const model = new EntriesModel(openSessionSync(turnsFile("reveal.jsonl", 3000)), "all");
    const pagedIn: (EntryNode | undefined)[] = [];
    const head = model.parent(model.entryNode("m5"), (c) => pagedIn.push(c));
    expect(head).toBe(model.entryNode("m4"));
    expect(model.parent(head!, (c) => pagedIn.push(c))).toBeUndefined();
    expect(pagedIn).toEqual([undefined]);
    expect(model.roots()).toContain(model.entryNode("m4"));
    expect(model.children(model.entryNode("m4"))).toContain(model.entryNode("m5"));
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

  it("advance: an append at the leaf refreshes the old leaf and its turn, a new user message the top level; same nodes as a fresh model", async () => {
    const path = turnsFile("advance.jsonl", 1000);
    const nodes = new Map();
    const model = new EntriesModel(openSessionSync(path), "all", nodes);
    walk(model);
    const oldLeaf = model.entryNode("m999");
    appendFileSync(path, messageLine("m1000", "m999", "toolResult") + "\n");
    const grown = await refreshSession(model.session);
    expect(grown.change).toBe("appended");
    expect(model.advance(grown.session)).toEqual([oldLeaf, model.entryNode("m996")]);
    expect(model.children(model.entryNode("m996"))).toContain(model.entryNode("m1000"));
    appendFileSync(path, messageLine("m1001", "m1000", "user") + "\n");
    const again = await refreshSession(model.session);
    expect(model.advance(again.session)).toEqual([model.entryNode("m1000"), undefined]);
    const fresh = new EntriesModel(openSessionSync(path), "all", nodes);
    expect(shape(model)).toEqual(shape(fresh));
    // A second child of an earlier entry is a new branch point: built again.
    appendFileSync(path, messageLine("b1", "m500", "user") + "\n");
    expect(model.advance((await refreshSession(model.session)).session)).toBeNull();
  });

  it("a session without repeated ids: no map of children by id, and no whole-tree analysis per append (memory and CPU of a 100 MB session)", async () => {
    const path = turnsFile("no-child-map.jsonl", 1000);
    const session = openSessionSync(path);
    const index = session.index;
    const childCount = vi.spyOn(index, "childCount");
    const children = vi.spyOn(index, "children");
    const model = new EntriesModel(session, "user");
    const analysed = vi.spyOn(index, "roots", "get");
    walk(model);
    model.opensOnShow("m996");
    for (let i = 1000; i < 1010; i++) {
      appendFileSync(path, messageLine(`m${i}`, `m${i - 1}`, i % 4 === 0 ? "user" : "assistant") + "\n");
      const next = await refreshSession(model.session);
      expect(next.session.index).toBe(index);
      expect(model.advance(next.session)).not.toBeNull();
      for (const node of [...model.roots(), ...model.children(model.entryNode(`m${i}`))]) model.hasChildren(node);
    }
    expect(childCount).not.toHaveBeenCalled();
    expect(children).not.toHaveBeenCalled();
    expect(analysed).not.toHaveBeenCalled();
    expect(shape(model)).toEqual(shape(new EntriesModel(openSessionSync(path), "user")));
  });

  it("advance equals a model built from scratch after random appends, under every filter", async () => {
    let n = 0;
    // "orphan": an entry whose parent is the id the next entry takes (that entry adopts it: roots and parents move, or a cycle forms).
    const step = fc.record({ kind: fc.constantFrom("leaf", "leaf", "leaf", "branch", "label", "orphan"), role: fc.constantFrom("user", "assistant", "toolResult"), pick: fc.nat() });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<EntryFilter>("all", "user", "no-tool-results", "labelled"), fc.integer({ min: 1, max: 260 }), fc.array(fc.array(step, { minLength: 1, maxLength: 4 }), { maxLength: 6 }), async (filter, start, batches) => {
        const path = turnsFile(`random-${n++}.jsonl`, start);
        const ids = Array.from({ length: start }, (_, i) => `m${i}`);
        let leaf = ids[ids.length - 1]!;
        let model = new EntriesModel(openSessionSync(path), filter);
        walk(model);
        for (const batch of batches) {
          const lines: string[] = [];
          for (const s of batch) {
            const id = `n${ids.length}`;
            if (s.kind === "label") {
              lines.push(JSON.stringify({ type: "label", id, parentId: leaf, timestamp: "2025-01-01T00:00:02.000Z", targetId: ids[s.pick % ids.length], label: "L" }));
            } else if (s.kind === "orphan") {
              lines.push(messageLine(id, `n${ids.length + 1}`, s.role));
            } else {
              lines.push(messageLine(id, s.kind === "leaf" ? leaf : ids[s.pick % ids.length]!, s.role));
            }
            ids.push(id);
            // pi's next entry continues the leaf before an orphan (the orphan dangles until that entry adopts it).
            if (s.kind !== "orphan") leaf = id;
          }
          appendFileSync(path, lines.join("\n") + "\n");
          const next = await refreshSession(model.session);
          const changed = model.advance(next.session);
          if (changed === null) model = new EntriesModel(next.session, filter);
          expect(shape(model)).toEqual(shape(new EntriesModel(openSessionSync(path), filter)));
        }
      }),
      { numRuns: 150 },
    );
  });
});
