// The same comparisons with our side reading files through the session reader
// (openSessionSync: entries(), pathTo(), entry()), so reader + core together
// equal pi. Fixtures: pi migrates a copy to v3 first, so ids agree.

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { buildContextFromPath } from "../../../src/core/context/build-session-context.js";
import { branchSourceFromSession } from "../../../src/core/branch/collect-entries.js";
import { generateRandomSession } from "../../support/random-session.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import { openPair } from "../../support/session-pair.js";
import {
  chooseLeaves,
  compareBranchPreparation,
  compareBranchSummaryEntries,
  compareContext,
  countInto,
  type ComparisonCounts,
  type SessionPair,
} from "../../support/differential.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/pi-mono/", import.meta.url));
let dir: string;
let oracle: PiOracle;
const counts: ComparisonCounts = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-reader-diff-"));
  oracle = await loadPiOracle();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.log(`differential (through the reader): ${JSON.stringify(counts)}`);
});

function readerPair(path: string): SessionPair {
  const pi = openPair(path); // first: pi rewrites a v1 copy when it migrates it
  const session = openSessionSync(path);
  return {
    ...pi,
    ours: session.entries(),
    ourBranch: branchSourceFromSession(session),
  };
}

function compareAll(pair: SessionPair, leaves: string[], rng: ReturnType<typeof createSeededRandom>): void {
  expect(pair.ours.map((e) => e.id)).toStrictEqual(pair.pi.map((e) => e.id));
  for (const leaf of leaves) {
    compareContext(oracle, pair, leaf, counts);
    compareBranchPreparation(oracle, pair, leaf, counts);
    const theirs = oracle.buildSessionContext(pair.pi, leaf);
    const ours = buildContextFromPath(pair.ourBranch!.getBranch(leaf));
    expect(ours.messages).toStrictEqual(theirs.messages);
    expect([ours.thinkingLevel, ours.model]).toStrictEqual([theirs.thinkingLevel, theirs.model]);
    countInto(counts, "buildContextFromPath(reader pathTo)");
  }
  const ids = pair.ours.map((e) => e.id);
  for (let i = 0; i < 4; i++) compareBranchSummaryEntries(oracle, pair, rng.pick(leaves), rng.pick(ids), counts);
}

describe("reader + core equal pi", () => {
  it.each(Array.from({ length: 40 }, (_, i) => 5001 + i))("random session %i", (seed) => {
    const pair = readerPair(generateRandomSession(seed, dir).path);
    const rng = createSeededRandom(seed);
    compareAll(pair, chooseLeaves(pair.ours, rng), rng);
    countInto(counts, "sessions");
  });

  it.each(["large-session.jsonl", "before-compaction.jsonl"])("%s (migrated by pi)", (name) => {
    const copy = join(dir, `reader-${name}`);
    copyFileSync(join(FIXTURES, name), copy);
    const pair = readerPair(copy);
    const rng = createSeededRandom(99);
    const ids = pair.ours.map((e) => e.id);
    const leaves = [ids[ids.length - 1]!, ...Array.from({ length: 8 }, () => rng.pick(ids))];
    compareAll(pair, leaves, rng);
    countInto(counts, "fixtures");
  });
});
