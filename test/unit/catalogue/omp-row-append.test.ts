// omp appends to a listed omp session: the catalogue carries the row over the
// appended bytes with omp's count kept in memory from the row's read
// (OmpIncrementalUsage), and reads the file in full where that count cannot
// follow (a compaction, a `/clear`, a context notebook revision, a switch to
// another leaf, a result for a call settled long ago), after a restart (no
// count in memory), and after omp rewrote its title slot in place. Either way
// every row equals the row computed from scratch, on random omp sessions with
// random appends: turns with tool calls and results, failed and aborted turns,
// custom entries, compactions of every method, `/clear`, branch switches, a
// half-written line completed later, and omp's rename (title_change appended,
// the slot rewritten in place; or the slot alone).

import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync, statSync, utimesSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { streamRow } from "../../../src/core/catalogue/streamed-row.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { serializeTitleSlot } from "../../../src/core/session/format/omp-title-slot-serialize.js";
import { OmpFile, step, turnSteps, type Step } from "../../support/omp/live-omp-file.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-catalogue-omp-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const versionOf = rowVersionPolicy({ defaultVersion: "0.73" });

/** The row computed from scratch: the full index, and the streamed read (the catalogue's), which must agree. */
function fromScratch(path: string): CatalogueRow {
  const st = statSync(path);
  const full = rowFromSession(openSessionSync(path), st.size, st.mtimeMs, versionOf)!;
  const streamed = streamRow(path, versionOf)!.computed!;
  expect(streamed.row).toEqual(full.row);
  expect(full.row.agent).toBe("omp");
  return full.row;
}

type Op =
  | { kind: "append"; steps: Step[]; cut: boolean }
  | { kind: "rename"; title: string; append: boolean }
  | { kind: "restart" };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 12, arbitrary: fc.record({ kind: fc.constant("append" as const), steps: fc.array(step, { minLength: 1, maxLength: 3 }), cut: fc.constant(false) }) },
  // A turn as omp writes it, one entry per write: the common case.
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("append" as const), steps: turnSteps.filter((t) => t.length > 0).map((t) => t.slice(0, 1)), cut: fc.constant(false) }) },
  // omp's write seen half-way: the line completed on the next look.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("append" as const), steps: fc.array(step, { minLength: 1, maxLength: 2 }), cut: fc.constant(true) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("rename" as const), title: fc.string({ minLength: 1, maxLength: 20 }), append: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "restart" as const }) },
);

/** An omp file with its title slot, as omp creates one. */
function ompFile(): OmpFile {
  const file = new OmpFile();
  file.lines.unshift(serializeTitleSlot({ title: "first", source: "auto", updatedAt: "2026-11-23T22:00:00.000Z" }).slice(0, -1));
  return file;
}

/** omp's rename: a title_change appended (when `append`), then the 256-byte slot rewritten in place at the file's start. */
function rename(path: string, file: OmpFile, title: string, append: boolean, n: number): void {
  if (append) {
    const id = `t${(file.counter++).toString(16).padStart(6, "0")}`;
    const line = JSON.stringify({ type: "title_change", title, source: "user", id, parentId: file.leaf, timestamp: new Date(Date.UTC(2026, 10, 24) + n).toISOString() });
    file.ids.push(id);
    file.leaf = id;
    file.lines.push(line);
    appendFileSync(path, `${line}\n`);
  }
  const slot = serializeTitleSlot({ title, source: "user", updatedAt: new Date(Date.UTC(2026, 10, 25) + n).toISOString() });
  file.lines[0] = slot.slice(0, -1);
  const before = statSync(path).mtimeMs;
  const fd = openSync(path, "r+");
  try {
    writeSync(fd, slot, 0, "utf8");
  } finally {
    closeSync(fd);
  }
  // A write in the same millisecond as the one before keeps the file's size and mtime: moved past both, as time would.
  const st = statSync(path);
  utimesSync(path, st.atime, new Date(Math.max(st.mtimeMs, before + 1000)));
}

describe("catalogue: omp appends to a listed omp session", () => {
  it("rows carried over omp's appends with its kept count equal rows from scratch; a rewrite, a restart and what the count cannot follow read the file", async () => {
    let run = 0;
    let appended = 0;
    let read = 0;
    let renamesRead = 0;
    await fc.assert(
      fc.asyncProperty(turnSteps, fc.array(step, { maxLength: 8 }), fc.array(op, { minLength: 1, maxLength: 14 }), async (opening, more, ops) => {
        const path = join(dir, `s${run}.jsonl`);
        const cache = join(dir, `cache${run++}`);
        const file = ompFile();
        for (const s of [...opening, ...more]) file.lines.push(file.line(s));
        writeFileSync(path, file.text());
        let catalogue = await SessionCatalogue.open(cache);
        expect((await catalogue.list([path]))[0]).toEqual(fromScratch(path));
        const refresh = async (): Promise<{ row: CatalogueRow; carried: boolean }> => {
          const before = { ...catalogue.stats };
          const row = (await catalogue.refresh(path))!;
          const carried = catalogue.stats.appended > before.appended;
          if (carried) appended++;
          else if (catalogue.stats.read > before.read) read++;
          return { row, carried };
        };
        for (const [n, o] of ops.entries()) {
          if (o.kind === "restart") {
            await catalogue.save();
            catalogue = await SessionCatalogue.open(cache);
            continue;
          }
          if (o.kind === "rename") {
            rename(path, file, o.title, o.append, n);
            const { row, carried } = await refresh();
            expect(row).toEqual(fromScratch(path));
            // Never carried over a rewrite of the file's start.
            expect(carried).toBe(false);
            renamesRead++;
            continue;
          }
          const added = o.steps.map((s) => file.line(s));
          file.lines.push(...added);
          const text = added.map((l) => `${l}\n`).join("");
          if (o.cut) {
            const half = text.length - Math.ceil(added[added.length - 1]!.length / 2) - 1;
            appendFileSync(path, text.slice(0, half));
            expect((await refresh()).row).toEqual(fromScratch(path));
            appendFileSync(path, text.slice(half));
          } else appendFileSync(path, text);
          expect((await refresh()).row).toEqual(fromScratch(path));
        }
        rmSync(cache, { recursive: true, force: true });
      }),
      { numRuns: Number(process.env.OMP_ROW_RUNS ?? 150), endOnFailure: true, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED) } : {}) },
    );
    if (process.env.OMP_ROW_COUNTS) console.log({ appended, read, renamesRead });
    // Both paths were taken: most appends carried by the kept count, the others read in full.
    expect(appended).toBeGreaterThan(read);
    expect(read).toBeGreaterThan(20);
    expect(renamesRead).toBeGreaterThan(20);
  }, 300_000);
});
