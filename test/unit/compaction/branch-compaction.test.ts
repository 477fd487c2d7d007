// The streamed `prepare` (describeBranchCompaction on a lazily read branch)
// equals describePreparation(planCompaction(path)) — the path both
// differential suites prove equal to pi — for both pi versions: on pi's random
// sessions read through the file reader (types and ids from the index, bodies
// parsed as needed), on sessions pi 1.5.2 writes, on the broken fixtures, and on
// pi 1.5.2's fixtures with fields replaced by junk, at every leaf and for
// several keepRecentTokens. Each file is read both ways: bodies parsed from the
// file, and held in memory (openSessionInMemory, what `prepare` runs), where
// pi 0.73's history is serialised from the line bytes (escaped-message.ts).

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchReaderOf, sessionBranchReader, type BranchReader } from "../../../src/core/context/branch-reader.js";
import { pieceText, transcriptString } from "../../../src/core/compaction/transcript-builder.js";
import { semanticsFor, type PiVersion } from "../../../src/core/agent/index.js";
import { openSessionSync, type LoadedSession } from "../../../src/core/session/open/open-session.js";
import { openSessionInMemory } from "../../../src/core/session/open/open-session-in-memory.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { describePi15 } from "../../support/pi15/oracle.js";
import { generateRandomSession } from "../../support/random-session.js";
import { mutate } from "../../support/junk-mutation.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { hostileWriter } from "../../support/hostile-json.js";
import { trickyMessage } from "../../support/tricky-messages.js";

const VERSIONS: PiVersion[] = ["0.73", "1.5"];
const KEEP_VALUES = [0, 1, 40, 500, 20000];
const PI15_DIR = join(__dirname, "../../fixtures/pi-1.5");
const BROKEN_DIR = join(__dirname, "../../fixtures/broken");

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-branch-compaction-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Streamed vs whole-path, at one leaf; returns how many comparisons ran. */
function compareAt(version: PiVersion, branch: BranchReader, path: readonly SessionEntry[]): number {
  const s = semanticsFor(version);
  expect(branch.length).toBe(path.length);
  expect(s.branchModel(branch)).toStrictEqual(s.buildSessionContext(path).model);
  for (const keepRecentTokens of KEEP_VALUES) {
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens };
    const streamed = s.describeBranchCompaction(branch, settings);
    const whole = s.describePreparation(s.planCompaction(path, settings));
    const joined = streamed.compactable ? { ...streamed, serializedHistory: transcriptString(streamed.serializedHistory) } : streamed;
    expect(joined).toStrictEqual(whole);
    // Same members in the same order (the CLI writes them as they come).
    expect(JSON.stringify(joined)).toBe(JSON.stringify(whole));
    if (streamed.compactable && joined.compactable) {
      expect(streamed.serializedHistory.length).toBe(joined.serializedHistory.length);
      // A piece given escaped holds exactly the bytes JSON.stringify writes for its text.
      for (const piece of streamed.serializedHistory.pieces) {
        if (typeof piece !== "string") expect(piece.escaped.equals(Buffer.from(JSON.stringify(pieceText(piece)).slice(1, -1)))).toBe(true);
      }
    }
  }
  return KEEP_VALUES.length;
}

/** The file as `prepare` reads it (held in memory), checked to give line bytes for the direct path. */
function inMemory(path: string): LoadedSession {
  const session = openSessionInMemory(path);
  if (!session.needsMigration && session.index.size > 0) expect(session.checkedLineAt(0)).toBeDefined();
  return session;
}

/** Every entry of the file as a leaf, or every `step`th (and pi's default leaf), through the file reader. */
function compareFile(version: PiVersion, session: LoadedSession, step = 1): number {
  let runs = 0;
  const ids = session.index.entries.map((m) => m.id).filter((_, i) => i % step === 0);
  const leaves: (string | null | undefined)[] = [undefined, null, ...ids];
  for (const leaf of leaves) runs += compareAt(version, sessionBranchReader(session, leaf), session.pathTo(leaf));
  return runs;
}

describe.each(VERSIONS)("streamed prepare equals the whole-path preparation (pi %s)", (version) => {
  it("on 40 random sessions written by pi, every leaf, read from the file", () => {
    let runs = 0;
    for (let seed = 1; seed <= 40; seed++) {
      const generated = generateRandomSession(seed, dir);
      runs += compareFile(version, openSessionSync(generated.path));
      runs += compareFile(version, inMemory(generated.path));
    }
    expect(runs).toBeGreaterThan(2000);
  });

  it("on the broken fixtures and pi's large session", () => {
    let runs = 0;
    for (const file of readdirSync(BROKEN_DIR).filter((f) => f.endsWith(".jsonl"))) {
      runs += compareFile(version, openSessionSync(join(BROKEN_DIR, file)));
      runs += compareFile(version, inMemory(join(BROKEN_DIR, file)));
    }
    // A parentId cycle: the walk stops before the first repeated entry, as pathTo's.
    const cycle = join(dir, "cycle.jsonl");
    const message = (id: string, parentId: string | null, role: string) =>
      JSON.stringify({ type: "message", id, parentId, timestamp: "2025-01-01T00:00:00.000Z", message: { role, content: [{ type: "text", text: `${role} ${id}` }], timestamp: 1 } });
    writeFileSync(cycle, [JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" }), message("a", "c", "user"), message("b", "a", "assistant"), message("c", "b", "user"), message("d", "c", "assistant")].join("\n") + "\n");
    const cycleSession = openSessionSync(cycle);
    expect(sessionBranchReader(cycleSession).length).toBe(4);
    runs += compareFile(version, cycleSession);
    for (const file of ["large-session.jsonl", "before-compaction.jsonl"]) {
      runs += compareFile(version, openSessionSync(join(__dirname, "../../fixtures/pi-mono", file)), 37);
      runs += compareFile(version, inMemory(join(__dirname, "../../fixtures/pi-mono", file)), 37);
    }
    expect(runs).toBeGreaterThan(100);
  });

  it("on pi 1.5.2's fixtures with junk fields, every leaf, in memory and read from the file", () => {
    let runs = 0;
    for (const file of readdirSync(PI15_DIR).filter((f) => f.endsWith(".jsonl"))) {
      const lines = readFileSync(join(PI15_DIR, file), "utf8").trim().split("\n");
      const header = lines[0]!;
      const entries = lines.slice(1).map((l) => JSON.parse(l) as SessionEntry);
      for (let seed = 1; seed <= 6; seed++) {
        const rng = createSeededRandom(seed * 131 + file.length);
        const mutated = entries.map((e) => mutate(e, rng, 0) as SessionEntry);
        const copy = join(dir, `junk-${seed}-${file}`);
        writeFileSync(copy, [header, ...mutated.map((e) => JSON.stringify(e))].join("\n") + "\n");
        const session = openSessionSync(copy);
        runs += compareFile(version, session);
        runs += compareFile(version, inMemory(copy));
        const path = session.pathTo();
        runs += compareAt(version, branchReaderOf(path), path);
      }
    }
    expect(runs).toBeGreaterThan(1000);
  });

  it("on 12 sessions of tricky messages written as JSON.stringify writes them and otherwise, every 3rd leaf, held in memory", () => {
    let runs = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const rng = createSeededRandom(seed * 7919);
      const writer = seed <= 2 ? hostileWriter(rng, 0, seed === 2 ? 0.05 : 0) : hostileWriter(rng, seed <= 4 ? 0 : 0.05);
      const lines = [Buffer.from(JSON.stringify({ type: "session", version: 3, id: `s${seed}`, timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" }))];
      let parentId: string | null = null;
      for (let i = 0; i < 120; i++) {
        const id = `e${seed}-${i}`;
        const entry = { type: "message", id, parentId, timestamp: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(), message: trickyMessage(rng) };
        // The entry's own fields as JSON.stringify writes them (the index must read them), its message written by `writer`.
        const head = JSON.stringify({ ...entry, message: 0 });
        lines.push(Buffer.concat([Buffer.from(head.slice(0, -2)), writer.line(entry.message), Buffer.from("}")]));
        parentId = id;
      }
      const file = join(dir, `tricky-${seed}.jsonl`);
      writeFileSync(file, Buffer.concat(lines.flatMap((l) => [l, Buffer.from("\n")])));
      runs += compareFile(version, inMemory(file), 3);
    }
    expect(runs).toBeGreaterThan(250);
  });
});

describe("LoadedSession.eachEntryAt", () => {
  it("hands on the bodies entryAt gives, in the order asked, in file order, reversed and shuffled", () => {
    const session = openSessionSync(join(__dirname, "../../fixtures/pi-mono/large-session.jsonl"));
    const metas = [...session.index.entries];
    const rng = createSeededRandom(3);
    const shuffled = [...metas].sort(() => rng.next() - 0.5);
    const sparse = metas.filter((_, i) => i % 7 === 0);
    for (const order of [metas, [...metas].reverse(), shuffled, sparse]) {
      const seen: string[] = [];
      session.eachEntryAt(order, (entry, k) => {
        expect(entry).toStrictEqual(session.entryAt(order[k]!));
        seen.push(entry.id);
      });
      expect(seen).toStrictEqual(order.map((m) => m.id));
    }
  });
});

describePi15("streamed prepare equals the whole-path preparation on sessions written by pi 1.5.2", (oracle) => {
  it("30 random sessions (system messages, context edits, 1.5 compactions, recovery omissions), every leaf, both pis", async () => {
    let runs = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const generated = await oracle().generate(25_000 + seed, join(dir, `pi15-${seed}`));
      const session = openSessionSync(generated.path);
      for (const version of VERSIONS) runs += compareFile(version, session);
    }
    expect(runs).toBeGreaterThan(1500);
  }, 600_000);
});
