import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EntryMeta } from "../../../src/core/session/format/entry-meta.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { SessionIndex } from "../../../src/core/session/index/session-index.js";
import { ourView, piView } from "./support/tree-views.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-index-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const IDS = ["e0", "e1", "e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"];
const timestamp = fc.oneof(
  fc.constantFrom("2025-01-01T00:00:01.000Z", "2025-01-01T00:00:02.000Z", "2025-01-01T00:00:02.000Z", "not a date", ""),
  fc.integer({ min: 0, max: 5 }),
  fc.constant(null),
);
/** Unique ids (pi's getTree lists a duplicate node twice, which we do not mirror), any parents, odd timestamps. */
const treeFile = fc
  .array(
    fc.record({
      type: fc.constantFrom("message", "custom", "label", "session_info", "context_edit"),
      parentId: fc.oneof(fc.constantFrom(...IDS), fc.constant(null), fc.constant("missing")),
      timestamp,
      targetId: fc.constantFrom(...IDS),
      label: fc.constantFrom("L1", "L2", "", undefined),
      name: fc.constantFrom(" a ", "b", "", undefined),
    }),
    { maxLength: IDS.length },
  )
  .map((entries) => {
    const header = { type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
    const lines = entries.map((e, i) => {
      const base = { type: e.type, id: IDS[i], parentId: e.parentId, timestamp: e.timestamp };
      if (e.type === "message") return { ...base, message: { role: "user", content: "x", timestamp: 1 } };
      if (e.type === "label") return { ...base, targetId: e.targetId, label: e.label };
      if (e.type === "session_info") return { ...base, name: e.name };
      return base;
    });
    return [header, ...lines].map((l) => JSON.stringify(l)).join("\n") + "\n";
  });

describe("session index equals pi's SessionManager", () => {
  it("on random trees with dangling and self parents, cycles, odd timestamps, labels and names", () => {
    let n = 0;
    fc.assert(
      fc.property(treeFile, (text) => {
        const path = join(dir, `tree-${n++}.jsonl`);
        writeFileSync(path, text);
        const pi = piView(path);
        const ours = ourView(openSessionSync(path));
        expect(ours).toEqual(pi);
      }),
      { numRuns: 400 },
    );
  });
});

function meta(id: string, parentId: string | null, line: number, extra: Partial<EntryMeta> = {}): EntryMeta {
  return { line, offset: line * 100, length: 99, index: line - 2, type: "message", id, parentId, timestamp: "2025-01-01T00:00:00.000Z", ...extra };
}

describe("SessionIndex", () => {
  it("walks root→leaf, stopping at a cycle instead of looping", () => {
    const index = new SessionIndex([meta("a", "c", 2), meta("b", "a", 3), meta("c", "b", 4), meta("d", "c", 5)]);
    expect(index.pathIds("d")).toEqual(["a", "b", "c", "d"]);
    expect(index.pathIds("a")).toEqual(["b", "c", "a"]);
    expect(index.roots).toEqual([]);
    expect(index.unreachable.map((m) => m.id)).toEqual(["a", "b", "c", "d"]);
    expect(index.diagnostics.map((d) => [d.code, d.line])).toEqual([["parent-cycle", 2]]);
    expect(index.pathIds("unknown")).toEqual([]);
  });

  it("reports labels on missing entries and clears labels with an empty one", () => {
    const index = new SessionIndex([
      meta("a", null, 2),
      meta("l1", "a", 3, { type: "label", targetId: "a", label: "first" }),
      meta("l2", "l1", 4, { type: "label", targetId: "zz", label: "nowhere" }),
    ]);
    expect(index.labelOf("a")).toBe("first");
    index.add(meta("l3", "l2", 5, { type: "label", targetId: "a", label: "" }));
    expect(index.labelOf("a")).toBeUndefined();
    expect(index.diagnostics.map((d) => [d.code, d.line])).toEqual([["unknown-label-target", 4]]);
  });

  it("keeps a clone independent of later additions", () => {
    const index = new SessionIndex([meta("a", null, 2), meta("b", "a", 3)]);
    const copy = index.clone();
    index.add(meta("c", "a", 4));
    expect(copy.size).toBe(2);
    expect(copy.children("a").map((m) => m.id)).toEqual(["b"]);
    expect(index.children("a").map((m) => m.id)).toEqual(["b", "c"]);
    expect(index.branchPoints.map((m) => m.id)).toEqual(["a"]);
    expect(copy.branchPoints).toEqual([]);
    expect(index.leafId).toBe("c");
  });

  it("updates children and roots when a parent arrives after its child (live tail)", () => {
    const index = new SessionIndex([meta("b", "a", 2)]);
    expect(index.orphans.map((m) => m.id)).toEqual(["b"]);
    index.add(meta("a", null, 3));
    expect(index.orphans).toEqual([]);
    expect(index.roots.map((m) => m.id)).toEqual(["a"]);
    expect(index.children("a").map((m) => m.id)).toEqual(["b"]);
  });
});
