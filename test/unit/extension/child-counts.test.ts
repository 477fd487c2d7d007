// The Entries model's per-position child counts (src/extension/views/child-counts.ts)
// against the index's childCount(id) — children by parent id, as pi's getTree
// links them — on random files with repeated, empty and self-parented ids,
// missing parents and parents that come later in the file; after appends
// (extended in place) as long as no append adopts an orphan (the model builds
// itself again then).
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSessionSync, refreshSession } from "../../../src/core/session/open/open-session.js";
import type { SessionIndex } from "../../../src/core/session/index/session-index.js";
import { ChildCounts } from "../../../src/extension/views/child-counts.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-child-counts-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HEADER = JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" });
const line = (id: string, parentId: string | null): string =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2025-01-01T00:00:01.000Z", message: { role: "user", content: "x", timestamp: 1 } });

/** Entries e0…: a parent among all ids (earlier, later, itself), none, a missing one, or ""; an id now and then repeated or "". */
const entries = fc.array(
  fc.record({
    parent: fc.oneof(fc.nat({ max: 40 }).map((n) => `e${n}`), fc.constantFrom(null, "missing", "")),
    id: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom("", "e0", "e1") }),
  }),
  { maxLength: 40 },
);
const lines = (list: { parent: string | null; id: string | undefined }[], from: number): string[] => list.map((e, i) => line(e.id ?? `e${from + i}`, e.parent));

function expectCounts(counts: ChildCounts, index: SessionIndex): void {
  for (let i = 0; i < index.size; i++) expect(counts.at(i), `entry ${i} (${index.idAt(i)})`).toBe(index.childCount(index.idAt(i)));
}

const usable = (index: SessionIndex): boolean => {
  if (index.duplicateCount > 0) return false;
  for (let i = 0; i < index.size; i++) if (index.idAt(i) === "") return false;
  return true;
};

describe("ChildCounts", () => {
  it("equals the index's childCount(id) wherever it applies (unique, non-empty ids), and declines otherwise", () => {
    let n = 0;
    fc.assert(
      fc.property(entries, (list) => {
        const path = join(dir, `whole-${n++}.jsonl`);
        writeFileSync(path, [HEADER, ...lines(list, 0)].join("\n") + "\n");
        const index = openSessionSync(path).index;
        const counts = ChildCounts.of(index);
        expect(counts !== undefined).toBe(usable(index));
        if (counts) expectCounts(counts, index);
      }),
      { numRuns: 400 },
    );
  });

  it("extended over appends that adopt no orphan, equals the index's counts; declines when an append repeats or empties an id", async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(entries, entries, async (first, more) => {
        const path = join(dir, `append-${n++}.jsonl`);
        writeFileSync(path, [HEADER, ...lines(first, 0)].join("\n") + "\n");
        const session = openSessionSync(path);
        const counts = ChildCounts.of(session.index);
        if (!counts) return;
        const orphanParents = new Set(session.index.orphans.map((m) => m.parentId));
        const sizeBefore = session.index.size;
        appendFileSync(path, lines(more, first.length).join("\n") + (more.length > 0 ? "\n" : ""));
        const grown = (await refreshSession(session)).session.index;
        // (The index is extended in place: the size before the append is the one kept.)
        const ids = Array.from({ length: grown.size - sizeBefore }, (_, i) => grown.idAt(sizeBefore + i));
        // The earlier entries' parents are as read only when no appended entry takes an id an orphan names (the model rebuilds then).
        const adopts = ids.some((id) => orphanParents.has(id));
        const extended = counts.extend(grown);
        if (adopts) return;
        expect(extended).toBe(usable(grown));
        if (extended) expectCounts(counts, grown);
      }),
      { numRuns: 400 },
    );
  });

  it("a count past 255 is left to the index", () => {
    const path = join(dir, "wide.jsonl");
    writeFileSync(path, [HEADER, line("root", null), ...Array.from({ length: 300 }, (_, i) => line(`c${i}`, "root"))].join("\n") + "\n");
    const index = openSessionSync(path).index;
    const counts = ChildCounts.of(index)!;
    expect(counts.at(0)).toBeUndefined();
    expect(counts.at(1)).toBe(0);
  });
});
