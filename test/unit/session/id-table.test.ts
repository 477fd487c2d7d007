// The id table filled later (defer: a read from scratch notes each position and
// puts them all in at once, in slot order) must answer exactly as the table
// filled one put at a time: every lookup, the number of distinct ids, and each
// reused id reported with the position it replaced, in file order — also when
// lookups in the middle of the read settle part of it early.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { IdTable } from "../../../src/core/session/index/id-table.js";
import { SessionIndex } from "../../../src/core/session/index/session-index.js";
import { SessionBuilder } from "../../../src/core/session/index/session-builder.js";
import { JsonlReader } from "../../../src/core/session/bytes/jsonl-reader.js";

/** Ids from a small pool (many reused) or fresh ones (long runs of distinct ids, so probes collide). */
const idStream = fc.array(
  fc.oneof({ weight: 1, arbitrary: fc.constantFrom("a", "b", "c", "0000000a", "") }, { weight: 4, arbitrary: fc.nat(5000).map((n) => n.toString(16).padStart(8, "0")) }),
  { minLength: 0, maxLength: 1500 },
);

function immediate(ids: string[]): { table: IdTable; duplicates: [number, number][] } {
  const column: string[] = [];
  const table = new IdTable(column);
  const duplicates: [number, number][] = [];
  ids.forEach((id, i) => {
    column.push(id);
    const previous = table.put(i);
    if (previous >= 0) duplicates.push([i, previous]);
  });
  return { table, duplicates };
}

function deferred(ids: string[], lookups: Set<number>, reserve: number): { table: IdTable; duplicates: [number, number][]; column: string[] } {
  const column: string[] = [];
  const table = new IdTable(column);
  const duplicates: [number, number][] = [];
  table.onDuplicate = (i, previous) => duplicates.push([i, previous]);
  if (reserve > 0) table.reserve(reserve);
  table.defer();
  ids.forEach((id, i) => {
    column.push(id);
    expect(table.put(i)).toBe(-1);
    // A lookup mid-read (a parent that is not the entry before): settles what was noted so far.
    if (lookups.has(i)) table.get(ids[(i * 7) % (i + 1)]!);
  });
  table.endDeferral();
  return { table, duplicates, column };
}

describe("IdTable deferred", () => {
  it("answers every lookup, its size and its reused ids as the table filled put by put (with lookups mid-read, and reserved or not)", () => {
    fc.assert(
      fc.property(idStream, fc.array(fc.nat(1500), { maxLength: 6 }), fc.constantFrom(0, 64, 4096), (ids, at, reserve) => {
        const a = immediate(ids);
        const b = deferred(ids, new Set(at), reserve);
        expect(b.duplicates).toEqual(a.duplicates);
        expect(b.table.size).toBe(a.table.size);
        for (const id of new Set([...ids, "missing", "0000ffff"])) expect(b.table.get(id)).toBe(a.table.get(id));
      }),
      { numRuns: 300 },
    );
  });

  it("keeps answering as put by put when puts come after the deferral ended (a live append)", () => {
    const ids = Array.from({ length: 1200 }, (_, i) => (i % 500).toString(16));
    const a = immediate([...ids, "1f3", "new"]);
    const b = deferred(ids, new Set(), 0);
    b.column.push("1f3", "new");
    const reused: [number, number][] = [];
    for (const i of [1200, 1201]) {
      const previous = b.table.put(i);
      if (previous >= 0) reused.push([i, previous]);
    }
    expect([...b.duplicates, ...reused]).toEqual(a.duplicates);
    for (const id of new Set([...ids, "new"])) expect(b.table.get(id)).toBe(a.table.get(id));
  });
});

describe("SessionIndex read with deferred ids", () => {
  const line = (id: string, parent: string | null, i: number) =>
    JSON.stringify({ type: "thinking_level_change", id, parentId: parent, timestamp: new Date(Date.UTC(2025, 0, 1) + i * 1000).toISOString(), thinkingLevel: "low" });

  it("gives the duplicate diagnostics, parents, paths and tree of the index built entry by entry", () => {
    fc.assert(
      fc.property(
        // Branchy files, and linear ones (every parent the entry before: nothing looked up while reading).
        fc.oneof(
          fc.array(fc.tuple(fc.nat(400), fc.oneof(fc.constant(-1), fc.nat(400)), fc.boolean()), { maxLength: 700 }),
          fc.array(fc.tuple(fc.nat(400), fc.constant(-1), fc.constant(true)), { maxLength: 700 }),
        ),
        (rows) => {
          const ids = rows.map(([n]) => n.toString(16).padStart(8, "0"));
          // Parents: the entry before (most lines, as pi writes), or any id (earlier, later, missing), or null.
          const text = `${JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" })}\n${rows
            .map(([, p, previous], i) => line(ids[i]!, previous && i > 0 ? ids[i - 1]! : p < 0 ? null : p.toString(16).padStart(8, "0"), i))
            .join("\n")}\n`;
          for (const skim of [false, true]) {
            const builder = new SessionBuilder(undefined, { skim });
            const reader = new JsonlReader((l) => builder.line(l));
            reader.push(Buffer.from(text));
            const read = builder.finish(reader.end()).index;
            const byEntry = new SessionIndex(read.entries);
            // Asked first (before anything that reads the whole table): a parent, then the reused ids.
            for (let i = 0; i < read.size; i++) expect(read.parentPositionOf(i)).toBe(byEntry.parentPositionOf(i));
            expect(read.duplicateCount).toBe(byEntry.duplicateCount);
            expect(read.diagnostics).toEqual(byEntry.diagnostics);
            for (const id of new Set(ids)) {
              expect(read.positionOf(id)).toBe(byEntry.positionOf(id));
              expect(read.pathIds(id)).toEqual(byEntry.pathIds(id));
            }
            expect(read.roots.map((m) => m.index)).toEqual(byEntry.roots.map((m) => m.index));
          }
        },
      ),
      { numRuns: 120 },
    );
  });
});
