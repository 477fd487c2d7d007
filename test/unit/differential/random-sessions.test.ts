// ≥200 sessions written by pi's own SessionManager, each compared with pi on
// every decision of the core (see test/support/differential.ts).

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
} from "../../support/differential.js";

const SESSION_COUNT = 220;
const seeds = Array.from({ length: SESSION_COUNT }, (_, i) => i + 1);

let dir: string;
let oracle: PiOracle;
const counts: ComparisonCounts = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-diff-"));
  oracle = await loadPiOracle();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`differential (random sessions): ${JSON.stringify(counts, null, 1)}\ntotal comparisons: ${total}`);
});

describe("pi-generated random sessions equal pi", () => {
  it.each(seeds)("seed %i", (seed) => {
    const session = generateRandomSession(seed, dir);
    const pair = openPair(session.path);
    expect(pair.ours.map((e) => e.id)).toStrictEqual(pair.pi.map((e) => e.id));
    countInto(counts, "sessions");
    countInto(counts, "entries", pair.ours.length);
    const rng = createSeededRandom(seed * 7919);

    const leaves = chooseLeaves(pair.ours, rng);
    for (const leaf of leaves) {
      compareContext(oracle, pair, leaf, counts);
      compareBranchPreparation(oracle, pair, leaf, counts);
    }
    compareContext(oracle, pair, undefined, counts);
    compareContext(oracle, pair, null, counts);
    compareContext(oracle, pair, "no-such-id", counts);

    const ids = pair.ours.map((e) => e.id);
    const pairs: [string | null, string][] = [[null, rng.pick(ids)]];
    for (let i = 0; i < 5; i++) pairs.push([rng.pick(leaves), rng.pick(ids)]);
    pairs.push([ids[ids.length - 1]!, rng.pick(leaves)]);
    for (const [oldLeaf, target] of pairs) compareBranchSummaryEntries(oracle, pair, oldLeaf, target, counts);
  });
});
