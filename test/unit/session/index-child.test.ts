// Big sessions indexed by the index child process (the real index-child.ts,
// bundled and forked with this Node): the snapshot it writes is the one an
// in-process read writes (same bytes), and the host, opening from it, has the
// index and facts of an in-process open without reading the file whole. A file
// appended while the child reads is finished by the host from the appended
// bytes; a child that cannot start, dies, hangs or lies leaves the host on
// today's path (its own read and write), with one warning.

import { appendFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "esbuild";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IndexChild, type IndexChildOptions } from "../../../src/core/session/index-child/index-child-client.js";
import { decodeSnapshot } from "../../../src/core/session/snapshot/index-snapshot-decode.js";
import { encodeSnapshot } from "../../../src/core/session/snapshot/index-snapshot-layout.js";
import { IndexSnapshots, snapshotContentOf, type SnapshottableRead } from "../../../src/core/session/snapshot/index-snapshot.js";
import { branchFactsFromScratch } from "../../../src/core/live/live-facts.js";
import { openSession, openSessionSync, refreshSession, type LoadedSession } from "../../../src/core/session/open/open-session.js";
import { pi15ContextTokenRule } from "../../../src/core/agent/index.js";
import { pi073ContextTokenRule } from "../../../src/core/tokens/context-token-rule.js";
import { FileModel, stepWithEdits } from "../../support/session-lines.js";

const MIN = 64 * 1024;
let dir: string;
let script: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-index-child-"));
  script = join(dir, "index-child.js");
  await build({ entryPoints: ["src/core/session/index-child/index-child.ts"], outfile: script, bundle: true, platform: "node", format: "cjs", target: "node20", logLevel: "warning" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let n = 0;
/** A session of more than `bytes` with every kind of line (random, seeded). */
function bigSession(bytes: number, seed: number): { path: string; model: FileModel } {
  const path = join(dir, `s${n++}.jsonl`);
  const model = new FileModel();
  const steps = fc.sample(stepWithEdits, { seed, numRuns: 4000 });
  for (let k = 0, size = 0; size < bytes; k++) {
    const line = model.line(steps[k % steps.length]!);
    model.lines.push(line);
    size += line.length + 1;
  }
  writeFileSync(path, model.text());
  return { path, model };
}

function more(model: FileModel, count: number, seed: number): string {
  return fc
    .sample(stepWithEdits, { seed, numRuns: count })
    .map((s) => `${model.line(s)}\n`)
    .join("");
}

/** What a reader of the session observes. */
function observed(s: LoadedSession): unknown {
  const idx = s.index;
  return {
    header: s.header,
    diagnostics: s.diagnostics,
    fingerprint: { ...s.fingerprint, mtimeMs: 0 },
    entries: idx.entries,
    leaf: idx.leafId,
    path: idx.leafId === null ? [] : idx.pathIds(idx.leafId),
    branchPoints: idx.branchPoints.map((m) => m.index),
    orphans: idx.orphans.map((m) => m.index),
    labels: [...idx.labels],
    name: idx.sessionName,
    spend: idx.totalSpend,
    facts073: { ...branchFactsFromScratch(s, pi073ContextTokenRule), labels: null },
    facts15: { ...branchFactsFromScratch(s, pi15ContextTokenRule), labels: null },
  };
}

function hostStore(child: IndexChild | undefined, extra: { rewriteAppendedBytes?: number } = {}): IndexSnapshots {
  return new IndexSnapshots(join(dir, `snapshots${n++}`), { minFileBytes: MIN, defer: () => undefined, builder: () => child, ...extra });
}

function childOf(options: IndexChildOptions = {}, file = script): { child: IndexChild; warnings: string[] } {
  const warnings: string[] = [];
  return { child: new IndexChild(file, { warn: (m) => warnings.push(m), ...options }), warnings };
}

/** A stand-in child (a few lines) for the failures the real one should not have. */
function fakeChild(body: string): string {
  const path = join(dir, `fake${n++}.js`);
  writeFileSync(path, `process.on("message", (m) => { ${body} });`);
  return path;
}

describe("index child", () => {
  it("writes the snapshot an in-process read writes; the host opens from it with the in-process index and facts", async () => {
    for (const skim of [false, true]) {
      const { path } = bigSession(3 * MIN, skim ? 2 : 1);
      const { child, warnings } = childOf();
      const store = hostStore(child);
      try {
        const opened = await openSession(path, { skim, snapshots: store });
        expect(store.stats).toMatchObject({ builtElsewhere: 1, exact: 1, grown: 0 });
        await store.flush();
        expect(store.stats.written, "the host encodes nothing").toBe(0);
        const scratch = openSessionSync(path, { skim });
        expect(observed(opened)).toEqual(observed(scratch));
        // What this process would have written (v8.serialize may store a string one- or two-byte: compared decoded).
        expect(decodeSnapshot(readFileSync(store.fileOf(path, skim)))).toEqual(decodeSnapshot(Buffer.concat(encodeSnapshot(snapshotContentOf(scratch as unknown as SnapshottableRead)!))));
        // It goes on from the snapshot as a read from scratch does.
        appendFileSync(path, '{"type":"label","id":"zz1","parentId":null,"timestamp":"2025-01-02T00:00:00.000Z","targetId":"e000001","label":"x"}\n');
        expect(observed((await refreshSession(opened)).session)).toEqual(observed(openSessionSync(path, { skim })));
        expect(child.stats).toMatchObject({ built: 1, started: 1 });
        expect(warnings).toEqual([]);
      } finally {
        child.dispose();
      }
    }
  });

  it("a file appended while the child reads it: the host reads the rest, the same session as an in-process open", async () => {
    const { path, model } = bigSession(40 * MIN, 3);
    const { child, warnings } = childOf();
    const store = hostStore(child);
    let appends = 0;
    const appending = setInterval(() => {
      appendFileSync(path, more(model, 3, 100 + appends++));
    }, 1);
    try {
      const opened = await openSession(path, { snapshots: store });
      clearInterval(appending);
      expect(appends).toBeGreaterThan(0);
      expect(store.stats.builtElsewhere).toBe(1);
      expect(store.stats.grown, "opened from the child's snapshot, then the bytes appended since").toBe(1);
      // What the host read was appended after the snapshot's end (or nothing).
      const fresh = await refreshSession(opened);
      expect(observed(fresh.session)).toEqual(observed(openSessionSync(path)));
      expect(warnings).toEqual([]);
    } finally {
      clearInterval(appending);
      child.dispose();
    }
  });

  it("a file rewritten after the child read it: its snapshot is not taken, the host reads the new file", async () => {
    const { path } = bigSession(2 * MIN, 12);
    const { path: other } = bigSession(3 * MIN, 13);
    const { child, warnings } = childOf();
    let result = "";
    // The real child, and then the file replaced (another inode, other bytes) before the host opens it.
    const rewriting = {
      available: true,
      build: async (request: Parameters<IndexChild["build"]>[0]) => {
        result = await child.build(request);
        writeFileSync(`${path}.new`, readFileSync(other));
        renameSync(`${path}.new`, path);
        return result as Awaited<ReturnType<IndexChild["build"]>>;
      },
    };
    const store = new IndexSnapshots(join(dir, `snapshots${n++}`), { minFileBytes: MIN, defer: () => undefined, builder: () => rewriting });
    try {
      const opened = await openSession(path, { snapshots: store });
      expect(result).toBe("written");
      expect(store.stats.exact + store.stats.grown, "the snapshot describes the old file").toBe(0);
      expect(observed(opened)).toEqual(observed(openSessionSync(path)));
      expect(warnings).toEqual([]);
    } finally {
      child.dispose();
    }
  });

  it("a snapshot grown by rewriteAppendedBytes is rewritten by the child, not the host; a burst shares one child, which exits when idle", async () => {
    const { path, model } = bigSession(2 * MIN, 4);
    const { child } = childOf({ idleMs: 200 });
    const store = hostStore(child, { rewriteAppendedBytes: 4096 });
    try {
      await openSession(path, { snapshots: store });
      appendFileSync(path, more(model, 40, 5));
      const grown = await openSession(path, { snapshots: store });
      expect(store.stats.grown).toBe(1);
      await store.flush();
      expect(store.stats).toMatchObject({ builtElsewhere: 2, written: 0 });
      expect(child.stats.started).toBe(1);
      const again = await openSession(path, { snapshots: store });
      expect(store.stats.exact).toBe(2);
      expect(observed(again)).toEqual(observed(openSessionSync(path)));
      expect(observed(grown)).toEqual(observed(openSessionSync(path)));
      await new Promise((r) => setTimeout(r, 600));
      const { path: other } = bigSession(2 * MIN, 6);
      await openSession(other, { snapshots: store });
      expect(child.stats.started, "let go when idle, started anew").toBe(2);
    } finally {
      child.dispose();
    }
  });

  it("an index opened from a snapshot owns its arrays (no view of the snapshot file's buffer kept), with room for appends", async () => {
    // Over 32,768 entries: the room for appends then fits the id table as it is (not rebuilt, so not owned by a rebuild).
    const { path, model } = bigSession(120 * MIN, 8);
    const store = hostStore(undefined);
    await openSession(path, { snapshots: store });
    await store.flush();
    const opened = await openSession(path, { snapshots: store });
    expect(store.stats.exact).toBe(1);
    const state = opened.index.exportState();
    const n = state.columns.count;
    const { columns: c, idTable } = state;
    const arrays = { parents: c.parents, times: c.times, stamps: c.stamps, lines: c.lines, offsets: c.offsets, lengths: c.lengths, activity: c.activity, spends: c.spends, flags: c.flags, slots: idTable.slots, hashes: idTable.hashes };
    const capacity = c.parents.buffer.byteLength / 4;
    expect(n).toBeGreaterThan(32768);
    expect(capacity).toBeGreaterThan(n);
    for (const [name, a] of Object.entries(arrays)) {
      // A view of the file's bytes starts after its header; an owned array at 0 and spans its buffer.
      expect(a.byteOffset, name).toBe(0);
      if (name !== "slots") expect(a.buffer.byteLength / (a.byteLength / (a.length || 1)) / (name === "stamps" ? 24 : name === "spends" ? 5 : 1), name).toBe(capacity);
    }
    // An append fits: the columns are not copied again.
    appendFileSync(path, more(model, 3, 9));
    const before = c.parents.buffer;
    const after = (await refreshSession(opened)).session.index.exportState();
    expect(after.columns.parents.buffer).toBe(before);
    expect(observed(opened)).toEqual(observed(openSessionSync(path)));
  });

  it("a file the child writes no snapshot of (a line still being written) is read here, and not handed over again at that size", async () => {
    const { path, model } = bigSession(2 * MIN, 10);
    appendFileSync(path, more(model, 1, 11).slice(0, 40));
    const { child, warnings } = childOf();
    const store = hostStore(child);
    try {
      const first = await openSession(path, { snapshots: store });
      expect(observed(first)).toEqual(observed(openSessionSync(path)));
      expect(child.stats.built).toBe(1);
      await openSession(path, { snapshots: store });
      expect(child.stats.built, "not asked again").toBe(1);
      appendFileSync(path, "\n");
      await openSession(path, { snapshots: store });
      expect(child.stats.built, "asked again once the file changed").toBe(2);
      expect(store.stats).toMatchObject({ builtElsewhere: 1, exact: 1 });
      expect(warnings).toEqual([]);
    } finally {
      child.dispose();
    }
  });

  it("requests wait their turn: each one's time limit starts when it is sent", async () => {
    // A stand-in that answers one request at a time, 150 ms each: eight take longer than one's limit.
    const file = fakeChild('globalThis.turn = (globalThis.turn ?? Promise.resolve()).then(() => new Promise((done) => setTimeout(() => { process.send({ id: m.id, result: "not-written", cpuMs: 1 }); done(); }, 150)));');
    const { child, warnings } = childOf({ timeoutMs: 1000 }, file);
    const request = { path: "/nowhere", skim: false, dir, minFileBytes: MIN, rewriteAppendedBytes: MIN, maxFolderBytes: MIN };
    try {
      const results = await Promise.all(Array.from({ length: 8 }, () => child.build(request)));
      expect(results).toEqual(Array(8).fill("not-written"));
      expect(warnings).toEqual([]);
    } finally {
      child.dispose();
    }
  });

  const failures: [string, () => string, IndexChildOptions][] = [
    ["missing", () => join(dir, "no-such-child.js"), {}],
    ["crashes", () => fakeChild("process.exit(3);"), {}],
    ["hangs", () => fakeChild(""), { timeoutMs: 300 }],
    ["lies", () => fakeChild('process.send({ id: m.id, result: "maybe", cpuMs: 1 });'), {}],
    ["answers another request", () => fakeChild('process.send({ id: m.id + 1, result: "written", cpuMs: 1 });'), {}],
  ];
  for (const [what, file, options] of failures) {
    it(`a child that ${what}: the host reads and writes as without one, one warning, not asked again during the back-off`, async () => {
      const { path } = bigSession(2 * MIN, 7);
      const { child, warnings } = childOf(options, file());
      const store = hostStore(child);
      try {
        const opened = await openSession(path, { snapshots: store });
        expect(observed(opened)).toEqual(observed(openSessionSync(path)));
        expect(store.stats.builtElsewhere).toBe(0);
        expect(child.available).toBe(false);
        await store.flush();
        expect(store.stats.written, "today's path: the host writes").toBe(1);
        const again = await openSession(path, { snapshots: store });
        expect(store.stats.exact).toBe(1);
        expect(observed(again)).toEqual(observed(opened));
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatch(/index process stopped .*tried again in 30 s/);
        expect(child.stats.started).toBeLessThanOrEqual(1);
      } finally {
        child.dispose();
      }
    });
  }

  const request = (): { path: string; skim: boolean; dir: string; minFileBytes: number; rewriteAppendedBytes: number; maxFolderBytes: number } => ({
    path: bigSession(2 * MIN, 9).path,
    skim: false,
    dir: join(dir, `snapshots${n++}`),
    minFileBytes: MIN,
    rewriteAppendedBytes: MIN,
    maxFolderBytes: 64 * MIN,
  });

  it("a child that keeps failing is tried again after each back-off (30 s, 2 min, 10 min), then left off: one line per change of state, none per request", async () => {
    let now = 0;
    const { child, warnings } = childOf({ now: () => now }, fakeChild("process.exit(3);"));
    const asked = request();
    try {
      const expected: RegExp[] = [/tried again in 30 s/, /tried again in 2 min/, /tried again in 10 min/, /failed 4 times in a row and is not started again until the window reloads/];
      for (const [k, delay] of [30_000, 120_000, 600_000, undefined].entries()) {
        expect(await child.build(asked)).toBe("unavailable");
        expect(child.stats.started).toBe(k + 1);
        expect(warnings).toHaveLength(k + 1);
        expect(warnings[k]).toMatch(expected[k]!);
        // Asked again and again during the back-off: no child started, nothing logged.
        for (let i = 0; i < 5; i++) expect(await child.build(asked)).toBe("unavailable");
        now += (delay ?? 600_000) - 1;
        expect(child.available).toBe(false);
        expect(await child.build(asked)).toBe("unavailable");
        expect(child.stats.started).toBe(k + 1);
        now += 1;
        expect(child.available).toBe(delay !== undefined);
      }
      // Given up: never started again, however long after.
      now += 24 * 3_600_000;
      expect(await child.build(asked)).toBe("unavailable");
      expect(child.stats.started).toBe(4);
      expect(warnings).toHaveLength(4);
    } finally {
      child.dispose();
    }
  });

  it("a child that works again after a back-off builds snapshots again (one line), and its next failure starts the back-offs anew", async () => {
    let now = 0;
    const later = join(dir, `later${n++}.js`);
    const { child, warnings } = childOf({ now: () => now, retryDelaysMs: [1000, 5000] }, later);
    const store = hostStore(child);
    try {
      // Not there yet (an update half-installed): the host reads, the child is off for 1 s.
      const first = bigSession(2 * MIN, 11).path;
      expect(observed(await openSession(first, { snapshots: store }))).toEqual(observed(openSessionSync(first)));
      expect(store.stats.builtElsewhere).toBe(0);
      expect(warnings).toEqual([expect.stringMatching(/index process stopped .*tried again in 1 s/)]);
      writeFileSync(later, readFileSync(script));
      const second = bigSession(2 * MIN, 12).path;
      await openSession(second, { snapshots: store });
      expect(store.stats.builtElsewhere, "still in its back-off").toBe(0);
      now += 1000;
      const third = bigSession(2 * MIN, 13).path;
      const opened = await openSession(third, { snapshots: store });
      expect(store.stats.builtElsewhere).toBe(1);
      expect(observed(opened)).toEqual(observed(openSessionSync(third)));
      expect(warnings).toHaveLength(2);
      expect(warnings[1]).toMatch(/index process works again/);
      // Fails again (gone): the first back-off again, not the second.
      child.dispose();
      rmSync(later);
      expect(await child.build(request())).toBe("unavailable");
      expect(warnings).toHaveLength(3);
      expect(warnings[2]).toMatch(/tried again in 1 s/);
    } finally {
      child.dispose();
    }
  });
});
