// The catalogue's rows of pi 1.5 sessions followed while pi writes them: the 14
// files pi 1.5.2 wrote (test/fixtures/pi-1.5) and random sessions written by pi
// 1.5.2's own SessionManager (retries and overflow recoveries with their
// context edits, replacements, system deltas, compactions, branches) are
// replayed into a listed file a few lines at a time; after each write the row
// carried over the appended lines must equal the row computed from scratch,
// and at the end pi 1.5.2's own context tokens (expected.json). The same for
// each context edit appended after a cold full read of the lines before it and
// an ordinary append (the sum computed ahead, sum-ahead.ts).

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { InProcessSums } from "../../support/in-process-sums.js";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { streamRow } from "../../../src/core/catalogue/streamed-row.js";
import { PI15_FIXTURES_DIR, readPi15Expected } from "../../support/pi15/expected-fixtures.js";
import { describePi15 } from "../../support/pi15/oracle.js";
import { createSeededRandom } from "../../support/seeded-random.js";

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-pi15-catalogue-"));
afterAll(() => (process.env.KEEP_PI15_CATALOGUE ? console.log(`kept ${dir}`) : rmSync(dir, { recursive: true, force: true })));
const versionOf = rowVersionPolicy({ defaultVersion: "0.73" });

/** The catalogue's own read of the whole file (streamed). */
function fromScratch(path: string): CatalogueRow {
  return streamRow(path, versionOf)!.computed!.row;
}

/**
 * The cost to 1e-9: a row carried over appends adds each write's sum to the previous total, a
 * full read adds entry by entry (float rounding). Everything else (the activity time too: pi
 * 1.5.2 writes the oracle's assistant messages with their timestamp before their usage) must be equal.
 */
function withRoundedCost(row: CatalogueRow | undefined): unknown {
  if (!row) return row;
  return { ...row, cost: Math.round(row.cost * 1e9) / 1e9 };
}

interface Replay {
  row: CatalogueRow;
  /** Writes holding a context_edit that the catalogue carried from the appended lines / read in full. */
  editsAppended: number;
  editsRead: number;
}

/** Writes `lines` (header first) into a listed file `sizes()` lines at a time, checking every row. */
async function replay(name: string, lines: string[], sizes: () => number, compared: (row: CatalogueRow | undefined) => unknown = (r) => r): Promise<Replay> {
  const path = join(dir, name);
  const cache = join(dir, `${name}.cache`);
  writeFileSync(path, `${lines[0]}\n${lines[1]}\n`);
  const out: Replay = { row: undefined as never, editsAppended: 0, editsRead: 0 };
  for (let at = 2; ; ) {
    const catalogue = await SessionCatalogue.open(cache);
    const [row] = await catalogue.list([path]);
    await catalogue.save();
    expect(compared(row), `${name} after ${at} lines`).toEqual(compared(fromScratch(path)));
    out.row = row!;
    if (at >= lines.length) break;
    const written = lines.slice(at, at + sizes());
    at += written.length;
    appendFileSync(path, written.map((l) => `${l}\n`).join(""));
    if (written.some((l) => l.includes('"type":"context_edit"'))) {
      const check = await SessionCatalogue.open(cache);
      await check.list([path]);
      if (check.stats.appended === 1) out.editsAppended++;
      else out.editsRead++;
      // Not saved: the loop's own catalogue answers this write again from the log.
    }
  }
  return out;
}

const fileLines = (path: string): string[] => readFileSync(path, "utf8").trimEnd().split("\n");

/**
 * For every context_edit line that follows an ordinary one (as pi writes them: the failed answer, then
 * its omission): the lines before that one read in full by a new catalogue (a cold listing, as the
 * fill child does), the ordinary line appended (the session is live: its sum is computed ahead, in
 * this process by the child's function), then the edit appended; each row must equal the row from
 * scratch. Counts the edits carried from their appended bytes alone.
 */
async function firstEdits(name: string, lines: string[], compared: (row: CatalogueRow | undefined) => unknown = (r) => r): Promise<{ appended: number; read: number; last?: CatalogueRow }> {
  const out: { appended: number; read: number; last?: CatalogueRow } = { appended: 0, read: 0 };
  const isEdit = (k: number): boolean => lines[k]!.includes('"type":"context_edit"');
  for (let k = 3; k < lines.length; k++) {
    if (!isEdit(k) || isEdit(k - 1)) continue;
    const path = join(dir, `first-${k}-${name}`);
    const cache = join(dir, `first-${k}-${name}.cache`);
    writeFileSync(path, lines.slice(0, k - 1).map((l) => `${l}\n`).join(""));
    const cold = await SessionCatalogue.open(cache);
    await cold.list([path]);
    await cold.save();
    expect(cold.stats.read, `${name}: the lines before ${k - 1} read in full`).toBe(1);
    const sums = new InProcessSums();
    appendFileSync(path, `${lines[k - 1]}\n`);
    const live = await SessionCatalogue.open(cache);
    const [before] = await live.list([path], undefined, sums);
    expect(compared(before), `${name}: the line before the edit at ${k}`).toEqual(compared(fromScratch(path)));
    await live.sumsSettled();
    await live.save();
    appendFileSync(path, `${lines[k]}\n`);
    const catalogue = await SessionCatalogue.open(cache);
    const [row] = await catalogue.list([path], undefined, sums);
    expect(compared(row), `${name}: the edit at line ${k} after a full read`).toEqual(compared(fromScratch(path)));
    if (catalogue.stats.appended === 1) out.appended++;
    else out.read++;
    if (k === lines.length - 1) out.last = row;
    rmSync(cache, { recursive: true, force: true });
  }
  return out;
}

describe("catalogue rows of the 14 files pi 1.5.2 wrote, followed write by write", () => {
  const expected = readPi15Expected();
  let editsAppended = 0;
  it.each(Object.keys(expected.files))("%s", async (name) => {
    const lines = fileLines(join(PI15_FIXTURES_DIR, name));
    const got = await replay(name, lines, () => 1);
    editsAppended += got.editsAppended;
    const want = expected.files[name]!;
    const lastId = (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
    // pi 1.5.2's getContextUsage on the file's leaf (after a compaction without a newer answer pi says "unknown": we show its estimate).
    if (want.leafId === lastId && got.row.contextSource !== "estimate-after-compaction") {
      expect(got.row.contextTokens).toBe(want.estimateProjectedContextTokens);
    }
  });
  it("the context edits pi 1.5 writes (02, 12, 14) were carried from the appended lines", () => {
    expect(editsAppended).toBeGreaterThanOrEqual(3);
  });
  it("the first context edit after a full read and an ordinary append (its sum computed ahead) is carried from its appended bytes, equal to the row from scratch (and pi 1.5.2's tokens when it is the leaf)", async () => {
    let appended = 0;
    let read = 0;
    for (const name of Object.keys(expected.files)) {
      const lines = fileLines(join(PI15_FIXTURES_DIR, name));
      const got = await firstEdits(name, lines);
      appended += got.appended;
      read += got.read;
      const want = expected.files[name]!;
      if (got.last && want.leafId === (JSON.parse(lines[lines.length - 1]!) as { id: string }).id && got.last.contextSource !== "estimate-after-compaction") {
        expect(got.last.contextTokens, name).toBe(want.estimateProjectedContextTokens);
      }
    }
    if (process.env.EDITS_COUNTS) console.log({ appended, read });
    // Every edit of the fixtures targets one of the newest entries: none needs the file read again.
    expect(appended).toBeGreaterThanOrEqual(3);
    expect(read).toBe(0);
  });
});

describePi15("catalogue rows of sessions pi 1.5.2 writes, followed write by write", (oracle) => {
  it("equal rows from scratch after every write, on 40 random sessions", async () => {
    let editsAppended = 0;
    let editsRead = 0;
    for (let seed = 71_001; seed < 71_041; seed++) {
      const g = await oracle().generate(seed, join(dir, `gen-${seed}`));
      const rng = createSeededRandom(seed);
      const got = await replay(`s${seed}.jsonl`, fileLines(g.path), () => rng.int(1, 3), withRoundedCost);
      editsAppended += got.editsAppended;
      editsRead += got.editsRead;
    }
    console.log(`pi 1.5.2 sessions: writes with a context edit carried from the appended lines ${editsAppended}, read in full ${editsRead}`);
    expect(editsAppended).toBeGreaterThan(10);
  }, 300_000);

  it("the first context edit after a full read and an ordinary append (its sum computed ahead) equals the row from scratch, on 40 random sessions", async () => {
    let appended = 0;
    let read = 0;
    for (let seed = 71_001; seed < 71_041; seed++) {
      const g = await oracle().generate(seed, join(dir, `gen-first-${seed}`));
      const got = await firstEdits(`s${seed}.jsonl`, fileLines(g.path), withRoundedCost);
      appended += got.appended;
      read += got.read;
    }
    console.log(`pi 1.5.2 sessions: first context edits after a full read carried from the appended lines ${appended}, read in full ${read}`);
    expect(appended).toBeGreaterThan(10);
  }, 300_000);
});
