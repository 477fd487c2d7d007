// The session catalogue: rows equal a full read of each file, whatever
// happened to the file since the last run (nothing, appends, rewrites,
// truncation, deletion) and whatever happened to the cache file (damage,
// another process saving at the same time).

import { createHash } from "node:crypto";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { SessionCatalogue, type CatalogueProgress } from "../../../src/core/catalogue/session-catalogue.js";
import { CATALOGUE_VERSION } from "../../../src/core/catalogue/catalogue-file.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { FileModel, op, step, type Step } from "../../support/session-lines.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-catalogue-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
const fresh = () => join(dir, `c${n++}`);

/** The row a full read gives now. */
function fullRow(path: string): CatalogueRow | undefined {
  const session = openSessionSync(path);
  const st = statSync(path);
  return rowFromSession(session, st.size, st.mtimeMs, rowVersionPolicy({ defaultVersion: "0.73" }))?.row;
}

function conversation(model: FileModel, turns: number): void {
  for (let i = 0; i < turns; i++) {
    model.lines.push(model.line({ kind: "user", parent: "leaf", pick: i, text: `question ${i}`, usage: 1 }));
    model.lines.push(model.line({ kind: "assistant", parent: "leaf", pick: i, text: `answer ${i}`, usage: 1000 + i }));
  }
}

function sessionFiles(count: number): string[] {
  const folder = fresh();
  rmSync(folder, { recursive: true, force: true });
  const files: string[] = [];
  mkdirSync(folder, { recursive: true });
  for (let i = 0; i < count; i++) {
    const model = new FileModel();
    conversation(model, 1 + (i % 4));
    const path = join(folder, `s${i}.jsonl`);
    writeFileSync(path, model.text());
    files.push(path);
  }
  const other = join(folder, "notes.jsonl");
  writeFileSync(other, '{"hello":1}\n');
  files.push(other);
  return files;
}

async function listed(cache: string, files: string[]): Promise<{ rows: CatalogueRow[]; progress: CatalogueProgress }> {
  const catalogue = await SessionCatalogue.open(cache);
  let progress!: CatalogueProgress;
  const rows = await catalogue.list(files, (p) => (progress = p));
  await catalogue.save();
  return { rows, progress };
}

/** A line of the catalogue's log as it writes them: the JSON's sha256 (16 hex digits), a space, the JSON. */
function logLine(value: unknown): string {
  const json = JSON.stringify(value);
  return `${createHash("sha256").update(json).digest("hex").slice(0, 16)} ${json}`;
}

const byPath = (rows: CatalogueRow[]) => [...rows].sort((a, b) => a.path.localeCompare(b.path));

describe("SessionCatalogue", () => {
  it("reads every session once, then answers from the cache file; rows equal full reads; other files are skipped", async () => {
    const files = sessionFiles(6);
    const cache = fresh();
    const cold = await listed(cache, files);
    expect(cold.progress).toMatchObject({ done: 7, total: 7, read: 7, cached: 0 });
    expect(byPath(cold.rows)).toEqual(byPath(files.slice(0, 6).map((f) => fullRow(f)!)));
    const warm = await listed(cache, files);
    expect(warm.progress).toMatchObject({ done: 7, read: 0, cached: 7 });
    expect(byPath(warm.rows)).toEqual(byPath(cold.rows));
  });

  it("carries a row over appended lines alone, and reads again after a rewrite, a truncation or a deletion", async () => {
    const files = sessionFiles(3);
    const cache = fresh();
    await listed(cache, files);
    const model = new FileModel();
    model.lines = readFileSync(files[0]!, "utf8").trimEnd().split("\n");
    model.ids = model.lines.slice(1).map((l) => JSON.parse(l).id as string);
    model.counter = 1000;
    const added: string[] = [];
    for (const kind of ["user", "assistant", "session_info", "model_change", "tool"] as const) added.push(model.line({ kind, parent: "leaf", pick: 7, text: "more", usage: 4321 }));
    appendFileSync(files[0]!, added.map((l) => `${l}\n`).join(""));
    writeFileSync(files[1]!, readFileSync(files[1]!, "utf8").split("\n").slice(0, 2).join("\n") + "\n");
    rmSync(files[2]!);
    const after = await listed(cache, files);
    expect(after.progress).toMatchObject({ appended: 1, read: 1, cached: 1 });
    expect(byPath(after.rows)).toEqual(byPath([fullRow(files[0]!)!, fullRow(files[1]!)!]));
    expect(after.rows.find((r) => r.path === files[0])).toMatchObject({ name: "more", contextSource: "usage" });
    // An appended line reusing an earlier id changes what parent links resolve to: read in full.
    appendFileSync(files[0]!, `${JSON.stringify({ ...JSON.parse(model.lines[1]!), parentId: model.ids[model.ids.length - 1] })}\n`);
    const reused = await listed(cache, files);
    expect(reused.progress).toMatchObject({ appended: 0, read: 1 });
    expect(reused.rows.find((r) => r.path === files[0])).toEqual(fullRow(files[0]!));
  });

  it("refreshing a file again after its append reads nothing more (two watchers report one write)", async () => {
    const files = sessionFiles(1);
    const catalogue = await SessionCatalogue.open(fresh());
    await catalogue.list(files);
    const model = new FileModel();
    model.lines = readFileSync(files[0]!, "utf8").trimEnd().split("\n");
    model.ids = model.lines.slice(1).map((l) => JSON.parse(l).id as string);
    model.counter = 1000;
    appendFileSync(files[0]!, `${model.line({ kind: "assistant", parent: "leaf", pick: 1, text: "more", usage: 4321 })}\n`);
    const before = { ...catalogue.stats };
    const first = await catalogue.refresh(files[0]!);
    const second = await catalogue.refresh(files[0]!);
    expect(second).toBe(first);
    expect(second).toEqual(fullRow(files[0]!));
    expect(catalogue.stats).toEqual({ cached: before.cached + 1, appended: before.appended + 1, read: before.read, readByChild: 0, childCpuMs: 0, sumsAsked: 0, sumsKept: 0, sumsCpuMs: 0, midWrite: 0, sumsAwaited: 0 });
  });

  it("a line pi is still writing (seen between its write calls): the complete lines are carried, the rest waits for the write that ends it; an unended line not written to lately is read in full", async () => {
    const files = sessionFiles(1);
    const path = files[0]!;
    const catalogue = await SessionCatalogue.open(fresh());
    await catalogue.list(files);
    const model = new FileModel();
    model.lines = readFileSync(path, "utf8").trimEnd().split("\n");
    model.ids = model.lines.slice(1).map((l) => JSON.parse(l).id as string);
    model.counter = 1000;
    const first = `${model.line({ kind: "assistant", parent: "leaf", pick: 1, text: "first", usage: 1234 })}\n`;
    const second = `${model.line({ kind: "user", parent: "leaf", pick: 1, text: "second", usage: 0 })}\n`;
    const before = { ...catalogue.stats };
    const listedRow = (await catalogue.refresh(path))!;

    // Only the start of a line: the row as it was but for the file's size and time, as a full read (which skips that line) gives it; nothing read.
    appendFileSync(path, first.slice(0, 40));
    expect(await catalogue.refresh(path)).toEqual(fullRow(path));
    expect((await catalogue.refresh(path))!.entries).toBe(listedRow.entries);
    // The rest of that line and the start of the next: the complete line is carried.
    appendFileSync(path, first.slice(40) + second.slice(0, 25));
    const carried = (await catalogue.refresh(path))!;
    const completePart = fresh();
    const text = readFileSync(path, "utf8");
    writeFileSync(completePart, text.slice(0, text.lastIndexOf("\n") + 1));
    expect(carried).toEqual(fullRow(path));
    expect(carried).toEqual({ ...fullRow(completePart)!, path, size: statSync(path).size, mtimeMs: statSync(path).mtimeMs });
    expect(carried.entries).toBe(listedRow.entries + 1);
    // The line ended: the row equals a full read of the file.
    appendFileSync(path, second.slice(25));
    expect(await catalogue.refresh(path)).toEqual(fullRow(path));
    expect(catalogue.stats.read).toBe(before.read);
    expect(catalogue.stats.midWrite - before.midWrite).toBe(2);
    expect(catalogue.stats.appended - before.appended).toBe(2);

    // An unended line nobody has written to for a while is not a write in progress: read in full.
    const unended = model.line({ kind: "user", parent: "leaf", pick: 1, text: "never ended", usage: 0 });
    appendFileSync(path, unended.slice(0, 30));
    const old = new Date(Date.now() - 60_000);
    utimesSync(path, old, old);
    expect(await catalogue.refresh(path)).toEqual(fullRow(path));
    expect(catalogue.stats.read).toBe(before.read + 1);
    // Its end, written much later, continues a record that ended inside a line: read in full again.
    appendFileSync(path, `${unended.slice(30)}\n`);
    expect(await catalogue.refresh(path)).toEqual(fullRow(path));
    expect(catalogue.stats.read).toBe(before.read + 2);
    // A whole line but for its newline is an entry to a full read (and to pi): read in full.
    appendFileSync(path, `${model.line({ kind: "user", parent: "leaf", pick: 1, text: "no newline", usage: 0 })}`);
    expect(await catalogue.refresh(path)).toEqual(fullRow(path));
    expect(catalogue.stats.read).toBe(before.read + 3);
  });

  it("rebuilds from a damaged cache file and drops damaged records, never using them", async () => {
    const files = sessionFiles(4);
    const cache = fresh();
    const catalogue = await SessionCatalogue.open(cache);
    await catalogue.list(files);
    await catalogue.save();
    const file = catalogue.file;
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const record = (i: number) => JSON.parse(lines[i]!.slice(17));
    // 1: valid checksum over an invalid record; 2: a changed digit under the old checksum;
    // 3: a key that is not a hash (checksum recomputed); the last line cut short.
    lines[1] = logLine({ ...record(1), row: { ...record(1).row, entries: "many" } });
    lines[2] = lines[2]!.replace(/"contextTokens":(\d)/, (_m, d: string) => `"contextTokens":${(Number(d) + 1) % 10}`);
    lines[3] = logLine({ ...record(3), key: { ...record(3).key, tailHash: "nothex" } });
    writeFileSync(file, `${lines.join("\n")}\n`.slice(0, -10));
    const damaged = await listed(cache, files);
    expect(damaged.progress).toMatchObject({ read: 4, cached: 1 });
    expect(byPath(damaged.rows)).toEqual(byPath(files.slice(0, 4).map((f) => fullRow(f)!)));
    // The repaired rows were appended after the damaged tail: all answered from the file now.
    expect((await listed(cache, files)).progress).toMatchObject({ read: 0, cached: 5 });
    writeFileSync(file, '{"format":"pi-sessions-catalogue","version":4,"rule":"pi-0.73","records":[{"pa');
    const garbage = await listed(cache, files);
    expect(garbage.progress).toMatchObject({ read: 5, cached: 0 });
    expect(byPath(garbage.rows)).toEqual(byPath(damaged.rows));
    // A file that is not this catalogue's log is replaced, not appended to.
    expect(readFileSync(file, "utf8").split("\n")[0]).toBe(logLine({ format: "pi-sessions-catalogue", version: CATALOGUE_VERSION, rule: "pi-0.73" }));
    expect((await listed(cache, files)).progress).toMatchObject({ read: 0, cached: 5 });
  });

  it("two writers saving at once leave a valid file holding both's work", async () => {
    const a = sessionFiles(3);
    const b = sessionFiles(3);
    const cache = fresh();
    const [ca, cb] = await Promise.all([SessionCatalogue.open(cache), SessionCatalogue.open(cache)]);
    await Promise.all([ca.list(a), cb.list(b)]);
    await Promise.all([ca.save(), cb.save()]);
    // Both appended their lines: a fresh process answers every file from the log.
    const again = await listed(cache, [...a, ...b]);
    expect(again.rows).toHaveLength(6);
    expect(again.progress).toMatchObject({ cached: 8, read: 0 });
    const lines = readFileSync(ca.file, "utf8").trimEnd().split("\n");
    for (const line of lines) expect(logLine(JSON.parse(line.slice(17)))).toBe(line);
  });

  it("after random appends, rewrites and truncations, every row equals a full read", async () => {
    let run = 0;
    let carried = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), fc.array(op, { minLength: 1, maxLength: 6 }), async (start: Step[], ops) => {
        const path = join(dir, `p${run++}.jsonl`);
        const cache = fresh();
        const model = new FileModel();
        for (const s of start) model.lines.push(model.line(s));
        writeFileSync(path, model.text());
        await listed(cache, [path]);
        for (const o of ops) {
          model.applyTo(path, o, run);
          const { rows, progress } = await listed(cache, [path]);
          carried += progress.appended;
          const expected = fullRow(path);
          expect(rows).toEqual(expected ? [expected] : []);
        }
      }),
      { numRuns: 40 },
    );
    // The property must have gone through the append path, not only full reads (fewer than
    // before pi 1.5's rule: an append holding the file's first pi 1.x entry, the generator's
    // `usage` entries, is read in full for the marker's line and the row's new rule).
    expect(carried).toBeGreaterThan(3);
  });
});
