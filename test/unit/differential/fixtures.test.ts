// pi's own fixtures (version 1), migrated by pi's SessionManager on a copy,
// compared with pi at many leaves like the random sessions.

import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSeededRandom } from "../../support/seeded-random.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import { openPair } from "../../support/session-pair.js";
import {
  compareBranchPreparation,
  compareBranchSummaryEntries,
  compareContext,
  countInto,
  type ComparisonCounts,
} from "../../support/differential.js";

const FIXTURES = fileURLToPath(new URL("../../fixtures/pi-mono/", import.meta.url));
let dir: string;
let oracle: PiOracle;
const counts: ComparisonCounts = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-fixtures-"));
  oracle = await loadPiOracle();
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  console.log(`differential (fixtures): ${JSON.stringify(counts)}`);
});

describe.each(["large-session.jsonl", "before-compaction.jsonl"])("%s equals pi", (name) => {
  it("at the last entry, the compactions and 25 random leaves", () => {
    const copy = join(dir, name);
    copyFileSync(join(FIXTURES, name), copy);
    const pair = openPair(copy); // pi migrates and rewrites the copy; both sides read the result
    expect(pair.ours.map((e) => e.id)).toStrictEqual(pair.pi.map((e) => e.id));
    const rng = createSeededRandom(name.length);
    const ids = pair.ours.map((e) => e.id);
    const leaves = new Set([ids[ids.length - 1]!]);
    pair.ours.forEach((e, i) => {
      if (e.type === "compaction") {
        leaves.add(e.id);
        leaves.add(ids[i - 1]!);
        leaves.add(ids[i + 1]!);
      }
    });
    for (let i = 0; i < 25; i++) leaves.add(rng.pick(ids));
    for (const leaf of leaves) {
      compareContext(oracle, pair, leaf, counts);
      compareBranchPreparation(oracle, pair, leaf, counts);
    }
    for (let i = 0; i < 10; i++) compareBranchSummaryEntries(oracle, pair, rng.pick(ids), rng.pick(ids), counts);
    countInto(counts, "fixture leaves", leaves.size);
  });
});
