// A session opened from its index snapshot equals the same file read from
// scratch — index, diagnostics, facts under both pi versions' token rules,
// bodies, and what a later append extends — whatever happened to the file
// (appends, rewrites, truncations, same-size rewrites) or to the snapshot
// (damaged bytes, another file's snapshot, an old format) in between.

import { closeSync, copyFileSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexSnapshots, resumeFromSnapshot } from "../../../src/core/session/snapshot/index-snapshot.js";
import { decodeSnapshot } from "../../../src/core/session/snapshot/index-snapshot-decode.js";
import type { SnapshotContent } from "../../../src/core/session/snapshot/index-snapshot-layout.js";
import { branchFactsFromScratch, type BranchFacts } from "../../../src/core/live/live-facts.js";
import { openSession, openSessionSync, refreshSession, type LoadedSession } from "../../../src/core/session/open/open-session.js";
import { pi15ContextTokenRule } from "../../../src/core/agent/index.js";
import { pi073ContextTokenRule } from "../../../src/core/tokens/context-token-rule.js";
import { FileModel, stepWithEdits, type Step } from "../../support/session-lines.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-index-snapshot-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function comparable(f: BranchFacts): unknown {
  return { ...f, labels: [...f.labels] };
}

/** Everything a reader of the session can observe. */
function observed(s: LoadedSession): unknown {
  const idx = s.index;
  const ids = (ms: readonly { index: number }[]) => ms.map((m) => m.index);
  return {
    header: s.header,
    headerLocation: s.headerLocation,
    headerMissing: s.headerMissing,
    version: s.version,
    needsMigration: s.needsMigration,
    diagnostics: s.diagnostics,
    fingerprint: s.fingerprint,
    entries: idx.entries,
    byId: idx.entries.map((m) => idx.get(m.id)?.index),
    children: idx.entries.map((m) => ids(idx.children(m.id))),
    roots: ids(idx.roots),
    orphans: ids(idx.orphans),
    unreachable: ids(idx.unreachable),
    branchPoints: ids(idx.branchPoints),
    leaf: idx.leafId,
    path: idx.leafId === null ? [] : idx.pathIds(idx.leafId),
    labels: [...idx.labels],
    name: idx.sessionName,
    messages: idx.messageCount,
    activity: idx.lastActivityTime,
    spend: idx.totalSpend,
    duplicates: idx.duplicateCount,
    facts073: comparable(branchFactsFromScratch(s, pi073ContextTokenRule)),
    facts15: comparable(branchFactsFromScratch(s, pi15ContextTokenRule)),
    bodies: s.entries(),
    raw: idx.entries.map((m) => s.rawLine(m.id)),
  };
}

type FileOp =
  | { op: "none" }
  | { op: "append"; steps: Step[] }
  | { op: "truncate"; keep: number }
  | { op: "rewrite"; keep: number; steps: Step[] }
  /** The same bytes count, one byte changed at `at` (a fraction of the file), with a later mtime. */
  | { op: "same-size"; at: number };
type SnapshotOp = { op: "keep" } | { op: "damage"; at: number; xor: number } | { op: "cut"; at: number } | { op: "foreign" } | { op: "old-format" };

const fileOp: fc.Arbitrary<FileOp> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ op: "none" as const }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant("append" as const), steps: fc.array(stepWithEdits, { minLength: 1, maxLength: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("truncate" as const), keep: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("rewrite" as const), keep: fc.nat(), steps: fc.array(stepWithEdits, { minLength: 1, maxLength: 4 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant("same-size" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }) },
);
const snapshotOp: fc.Arbitrary<SnapshotOp> = fc.oneof(
  { weight: 5, arbitrary: fc.constant({ op: "keep" as const }) },
  // Spread over the whole file (fast-check favours the ends of a range).
  { weight: 3, arbitrary: fc.record({ op: fc.constant("damage" as const), at: fc.nat().map((n) => ((n * 2654435761) >>> 0) / 2 ** 32), xor: fc.integer({ min: 1, max: 255 }) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant("cut" as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ op: "foreign" as const }) },
  { weight: 1, arbitrary: fc.constant({ op: "old-format" as const }) },
);

/** One entry's id changed in place (its last character), at about `at` of the file: what the index holds. */
function sameSizeRewrite(path: string, at: number, model: FileModel): void {
  const bytes = readFileSync(path);
  const before = statSync(path);
  const from = bytes.indexOf('"id":"', Math.floor((0.15 + 0.7 * at) * bytes.length));
  const start = from >= 0 ? from : bytes.indexOf('"id":"', 1);
  if (start >= 0) {
    const k = bytes.indexOf('"', start + 6) - 1;
    const c = bytes[k]!;
    bytes[k] = c === 0x7a ? 0x61 : c === 0x39 ? 0x30 : c === 0x7e ? 0x21 : c + 1;
  }
  writeFileSync(path, bytes);
  model.lines = bytes.toString("utf8").split("\n").slice(0, -1);
  // A later write (the clock may not have moved since the snapshot was written).
  const later = new Date(before.mtimeMs + 2000);
  utimesSync(path, later, later);
}

function spoilSnapshot(store: IndexSnapshots, path: string, other: string, skim: boolean, o: SnapshotOp): boolean {
  const file = store.fileOf(path, skim);
  if (o.op === "keep" || !existsSync(file)) return false;
  if (o.op === "foreign") {
    const theirs = store.fileOf(other, skim);
    if (!existsSync(theirs)) return false;
    copyFileSync(theirs, file);
    return true;
  }
  const bytes = readFileSync(file);
  if (o.op === "damage") bytes[Math.min(bytes.length - 1, Math.floor(o.at * bytes.length))]! ^= o.xor;
  if (o.op === "old-format") bytes.writeUInt32LE(0, 8);
  writeFileSync(file, o.op === "cut" ? bytes.subarray(0, Math.floor(o.at * bytes.length)) : bytes);
  return true;
}

describe("index snapshots", () => {
  it("a session opened from its snapshot equals it read from scratch, after random file and snapshot changes", async () => {
    let run = 0;
    const used = { exact: 0, grown: 0, written: 0 };
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepWithEdits, { minLength: 20, maxLength: 50 }),
        fc.array(fc.tuple(fileOp, snapshotOp), { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom(0, 1 << 20),
        async (start, ops, skim, rewriteAppendedBytes) => {
          run++;
          const folder = join(dir, `snapshots-${run}`);
          const store = new IndexSnapshots(folder, { minFileBytes: 0, rewriteAppendedBytes, defer: () => undefined });
          const path = join(dir, `s${run}.jsonl`);
          const other = join(dir, `other${run}.jsonl`);
          const model = new FileModel();
          // Long lines between: most bytes lie between the first and the last 4 KiB (only the key's times see a change there).
          for (const [k, s] of start.entries()) {
            model.lines.push(model.line(s));
            if (k % 4 === 0) model.lines.push(model.line({ kind: "user", parent: "leaf", pick: k, text: "long ".repeat(600), usage: 1 }));
          }
          writeFileSync(path, model.text());
          writeFileSync(other, model.text());
          await openSession(other, { skim, snapshots: store });
          let live = await openSession(path, { skim, snapshots: store });
          await store.flush();
          for (const [fo, so] of ops) {
            const before = { ...store.stats };
            if (fo.op === "append" || fo.op === "truncate" || fo.op === "rewrite") model.applyTo(path, fo, run);
            // A snapshot is only as good as its key: a change before the snapshot's last 4 KiB
            // (and after its first) that comes with growth is taken for an append (the contract
            // refreshSession and the catalogue keep too). So same-size rewrites are made while the
            // snapshot describes the file as it is (each grown open rewrites it: rewriteAppendedBytes 0).
            else if (fo.op === "same-size" && rewriteAppendedBytes === 0) sameSizeRewrite(path, fo.at, model);
            const spoiled = spoilSnapshot(store, path, other, skim, so);
            const snapshotted = existsSync(store.fileOf(path, skim));
            const fromSnapshot = await openSession(path, { skim, snapshots: store });
            const scratch = await openSession(path, { skim });
            expect(observed(fromSnapshot)).toEqual(observed(scratch));
            const hits = store.stats.exact - before.exact + (store.stats.grown - before.grown);
            if (spoiled || (fo.op === "same-size" && rewriteAppendedBytes === 0) || fo.op === "truncate") expect(store.stats.exact).toBe(before.exact);
            if (!spoiled && snapshotted && fo.op === "none") expect(hits).toBe(1);
            if (!spoiled && snapshotted && fo.op === "append") expect(store.stats.grown - before.grown).toBe(1);
            // The session read earlier, extended over the change, equals both (its resume state carried over).
            live = (await refreshSession(live)).session;
            expect(observed(live)).toEqual(observed(scratch));
            // And what a snapshot's session extends over a later append.
            model.applyTo(path, { op: "append", steps: [{ kind: "user", parent: "leaf", pick: 0, text: `after ${run}`, usage: 1 }] }, run);
            const extended = (await refreshSession(fromSnapshot)).session;
            live = (await refreshSession(live)).session;
            expect(observed(extended)).toEqual(observed(openSessionSync(path, { skim })));
            await store.flush();
            if (rewriteAppendedBytes === 0) {
              // The snapshot describes the file as it is now (see the same-size rewrites above).
              await openSession(path, { skim, snapshots: store });
              await store.flush();
            }
          }
          for (const k of ["exact", "grown", "written"] as const) used[k] += store.stats[k];
        },
      ),
      { numRuns: 80 },
    );
    // The property did exercise both ways of using a snapshot.
    expect(used.exact).toBeGreaterThan(20);
    expect(used.grown).toBeGreaterThan(20);
  }, 240_000);

  it("a grown file reads only the appended bytes; files under the size limit get no snapshot", async () => {
    const folder = join(dir, "grown");
    const store = new IndexSnapshots(folder, { minFileBytes: 0, defer: () => undefined });
    const path = join(dir, "grown.jsonl");
    const model = new FileModel();
    for (let i = 0; i < 300; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: "t", usage: 100 + i }));
    writeFileSync(path, model.text());
    openSessionSync(path, { snapshots: store });
    await store.flush();
    expect(store.stats.written).toBe(1);
    const size = statSync(path).size;
    appendFileSync(path, `${model.line({ kind: "user", parent: "leaf", pick: 0, text: "more", usage: 1 })}\n`);
    const reopened = openSessionSync(path, { snapshots: store });
    expect(store.stats.grown).toBe(1);
    // Entries before the snapshot's end come from it: their lines were not read again.
    expect(reopened.index.size).toBe(301);
    expect(reopened.index.at(300).offset).toBeGreaterThanOrEqual(size);

    const small = new IndexSnapshots(join(dir, "small"), { minFileBytes: size * 2, defer: () => undefined });
    openSessionSync(path, { snapshots: small });
    await small.flush();
    expect(existsSync(join(dir, "small")) ? readdirSync(join(dir, "small")) : []).toEqual([]);
  });

  it("a snapshot is read section by section into the arrays the opened index keeps: no read of the whole file, no copy at the open; damage anywhere is refused", async () => {
    const folder = join(dir, "sections");
    const store = new IndexSnapshots(folder, { minFileBytes: 0, defer: () => undefined });
    const path = join(dir, "sections.jsonl");
    const model = new FileModel();
    for (let i = 0; i < 3000; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: "t".repeat(i % 40), usage: 100 + i }));
    writeFileSync(path, model.text());
    openSessionSync(path, { snapshots: store });
    await store.flush();
    const file = readFileSync(store.fileOf(path, false));
    const reads: number[] = [];
    const decoded = decodeSnapshot({ size: file.length, read: (into, at) => (reads.push(into.length), into.set(file.subarray(at, at + into.length))) }) as SnapshotContent;
    expect(typeof decoded).toBe("object");
    expect(Math.max(...reads), "the largest read is a section's").toBeLessThan(file.length / 2);
    expect(decoded).toEqual(decodeSnapshot(file));
    // Opened from the file: the index keeps the decoded columns themselves (read with room), not copies.
    const st = statSync(path);
    const fd = openSync(path, "r");
    let match;
    try {
      match = store.find(path, false, fd, st);
    } finally {
      closeSync(fd);
    }
    expect(match).not.toBeNull();
    const columns = match!.content.index.columns;
    expect(columns.parents.length).toBeGreaterThan(columns.count);
    const kept = resumeFromSnapshot(match)!.snapshot.index.exportState().columns;
    for (const name of ["parents", "times", "lines", "offsets", "lengths", "activity", "spends", "flags"] as const) expect(kept[name].buffer, name).toBe(columns[name].buffer);
    // Any byte changed, the file cut short, or a count past the file: refused (a reason), never thrown.
    for (let k = 0; k < 200; k++) {
      const damaged = Buffer.from(file);
      const at = (k * 7919) % file.length;
      damaged[at] = damaged[at]! ^ (1 + (k % 255));
      expect(typeof decodeSnapshot(damaged), `byte ${at}`).toBe("string");
    }
    expect(decodeSnapshot(file.subarray(0, file.length - 1))).toMatch(/out of bounds|sections do not fill|cut short|checksum/);
    const header = file.toString("latin1", 16, 16 + file.readUInt32LE(12));
    const huge = Buffer.from(file);
    huge.write(header.replace(/"count":\d+/, `"count":${"9".repeat(String(columns.count).length)}`), 16, "latin1");
    expect(decodeSnapshot(huge)).toMatch(/header|checksum|wrong length/);
  });

  it("keeps the folder under its bound, least recently used out first", async () => {
    const folder = join(dir, "bounded");
    const probe = new IndexSnapshots(join(dir, "probe"), { minFileBytes: 0, defer: () => undefined });
    const model = new FileModel();
    for (let i = 0; i < 100; i++) model.lines.push(model.line({ kind: "user", parent: "leaf", pick: i, text: "x".repeat(30), usage: 1 }));
    const paths = [0, 1, 2].map((i) => join(dir, `bounded${i}.jsonl`));
    for (const p of paths) writeFileSync(p, model.text());
    openSessionSync(paths[0]!, { snapshots: probe });
    await probe.flush();
    const one = statSync(probe.fileOf(paths[0]!, false)).size;
    const store = new IndexSnapshots(folder, { minFileBytes: 0, maxFolderBytes: Math.floor(one * 2.5), defer: () => undefined });
    for (const [k, p] of paths.entries()) {
      openSessionSync(p, { snapshots: store });
      await store.flush();
      // Distinct use times for the order.
      utimesSync(store.fileOf(p, false), new Date(1000 * (k + 1)), new Date(1000 * (k + 1)));
    }
    expect(paths.map((p) => existsSync(store.fileOf(p, false)))).toEqual([false, true, true]);
  });

  it("a write that fails is ignored, with one log line", async () => {
    const blocker = join(dir, "not-a-folder");
    writeFileSync(blocker, "x");
    const lines: string[] = [];
    const store = new IndexSnapshots(join(blocker, "index"), { minFileBytes: 0, defer: () => undefined, log: (l) => lines.push(l) });
    const path = join(dir, "fails.jsonl");
    const model = new FileModel();
    model.lines.push(model.line({ kind: "user", parent: "leaf", pick: 0, text: "x", usage: 1 }));
    writeFileSync(path, model.text());
    for (let i = 0; i < 3; i++) {
      const s = openSessionSync(path, { snapshots: store });
      await store.flush();
      expect(s.index.size).toBe(1);
    }
    expect(lines).toHaveLength(1);
  });
});
