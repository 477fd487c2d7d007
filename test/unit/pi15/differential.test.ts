// ≥200 sessions written by pi 1.5.2's own SessionManager (every 1.x feature, see
// test/support/pi15/random-session-1.5.ts), each compared with pi 1.5.2 at random
// leaves and several budgets on everything `semanticsFor("1.5")` decides (see
// test/support/pi15/differential-1.5.ts). A failure names the seed; rerun one with
// PI15_SEED=<seed> npx vitest run test/unit/pi15/differential.test.ts (the file is
// kept and its path printed).

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { chooseLeaves, countInto, type ComparisonCounts } from "../../support/differential.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { generateRandomSession } from "../../support/random-session.js";
import { parseEntriesOurselves } from "../../support/session-pair.js";
import { describePi15 } from "../../support/pi15/oracle.js";
import {
  compareAnswers,
  CUT_KEEPS,
  DEFAULT_BRANCH_BUDGET,
  DEFAULT_SETTINGS,
  SMALL_SETTINGS,
} from "../../support/pi15/differential-1.5.js";

const SESSION_COUNT = 220;
const FIXTURES = new URL("../../fixtures/pi-1.5/", import.meta.url).pathname;
const only = process.env.PI15_SEED ? [Number(process.env.PI15_SEED)] : undefined;
const seeds = only ?? Array.from({ length: SESSION_COUNT }, (_, i) => 15_001 + i);

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-pi15-diff-"));
const counts: ComparisonCounts = {};
const features: Record<string, number> = {};
const failedSeeds: number[] = [];

afterAll(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(`pi 1.5.2 differential: ${JSON.stringify(counts, null, 1)}\ntotal comparisons: ${total}`);
  console.log(`features written: ${JSON.stringify(features)}`);
  if (failedSeeds.length === 0) rmSync(dir, { recursive: true, force: true });
  else console.log(`failed seeds ${failedSeeds.join(", ")}: sessions kept in ${dir}`);
});

describePi15("sessions written by pi 1.5.2 equal pi 1.5.2 on every decision", (oracle) => {
  // pi's answers for the next seed are computed (in the Node 22 process) while this one is compared.
  const prepared = new Map<number, ReturnType<typeof prepare>>();
  const prepare = async (seed: number) => {
    const g = await oracle().generate(seed, join(dir, String(seed)));
    const ours = parseEntriesOurselves(readFileSync(g.path, "utf8"));
    const rng = createSeededRandom(seed * 7919);
    const leaves = chooseLeaves(ours, rng);
    const ids = ours.map((e) => e.id);
    const random = () => ({ enabled: true, reserveTokens: 16384, keepRecentTokens: rng.int(1, 12_000) });
    const branchPairs: { oldLeafId: string | null; targetId: string }[] = [{ oldLeafId: null, targetId: rng.pick(ids) }];
    for (let i = 0; i < 4; i++) branchPairs.push({ oldLeafId: rng.pick(leaves), targetId: rng.pick(ids) });
    branchPairs.push({ oldLeafId: ids[ids.length - 1]!, targetId: rng.pick(leaves) });
    branchPairs.push({ oldLeafId: rng.pick(ids), targetId: rng.pick(ids) });
    const answers = await oracle().answers({
      file: g.path,
      leaves,
      settings: [DEFAULT_SETTINGS, SMALL_SETTINGS, random(), random()],
      cutKeeps: CUT_KEEPS,
      branchPairs,
      branchBudgets: [0, DEFAULT_BRANCH_BUDGET, 2000, rng.int(50, 1500)],
    });
    return { g, ours, leaves, answers };
  };
  const start = (seed: number | undefined) => {
    if (seed !== undefined && !prepared.has(seed)) {
      const p = prepare(seed);
      p.catch(() => undefined); // reported by the seed's own test
      prepared.set(seed, p);
    }
  };

  it.each(seeds)("seed %i", async (seed) => {
    start(seed);
    start(seeds[seeds.indexOf(seed) + 1]);
    const { g, ours, leaves, answers } = await prepared.get(seed)!;
    prepared.delete(seed);
    for (const [name, n] of Object.entries(g.features)) features[name] = (features[name] ?? 0) + n;
    expect(answers.leaves).toHaveLength(leaves.length);
    try {
      compareAnswers(ours, answers, `seed ${seed} (${g.path})`, counts);
    } catch (error) {
      failedSeeds.push(seed);
      throw error;
    }
    countInto(counts, "sessions");
    countInto(counts, "entries", ours.length);
  });
});

describePi15("the 14 files pi 1.5.2 wrote equal pi 1.5.2 at every entry as leaf", (oracle) => {
  const files = readdirSync(FIXTURES).filter((name) => name.endsWith(".jsonl"));
  it.each(files)("%s", async (name) => {
    const ours = parseEntriesOurselves(readFileSync(FIXTURES + name, "utf8"));
    const ids = ours.map((e) => e.id);
    const answers = await oracle().answers({
      file: FIXTURES + name,
      leaves: ids,
      settings: [DEFAULT_SETTINGS, SMALL_SETTINGS, { enabled: true, reserveTokens: 16384, keepRecentTokens: 1 }, { enabled: true, reserveTokens: 16384, keepRecentTokens: 5000 }],
      cutKeeps: CUT_KEEPS,
      branchPairs: ids.flatMap((from) => [{ oldLeafId: from, targetId: ids[0]! }, { oldLeafId: ids[ids.length - 1]!, targetId: from }]),
      branchBudgets: [0, DEFAULT_BRANCH_BUDGET, 2000, 500],
    });
    compareAnswers(ours, answers, name, counts);
    countInto(counts, "fixture files");
  });
});

describePi15("sessions written by pi 0.73.1, read by pi 1.5.2 (a 1.5 user's old sessions)", (oracle) => {
  it.each(Array.from({ length: 60 }, (_, i) => 7_301 + i))("seed %i", async (seed) => {
    const g = generateRandomSession(seed, join(dir, `old-${seed}`));
    const ours = parseEntriesOurselves(readFileSync(g.path, "utf8"));
    const rng = createSeededRandom(seed * 104729);
    const leaves = chooseLeaves(ours, rng);
    const ids = ours.map((e) => e.id);
    const answers = await oracle().answers({
      file: g.path,
      leaves,
      settings: [DEFAULT_SETTINGS, SMALL_SETTINGS, { enabled: true, reserveTokens: 16384, keepRecentTokens: rng.int(1, 8000) }],
      cutKeeps: CUT_KEEPS,
      branchPairs: [{ oldLeafId: rng.pick(leaves), targetId: rng.pick(ids) }, { oldLeafId: ids[ids.length - 1]!, targetId: rng.pick(ids) }],
      branchBudgets: [0, DEFAULT_BRANCH_BUDGET, 1000],
    });
    compareAnswers(ours, answers, `0.73 seed ${seed} (${g.path})`, counts);
    countInto(counts, "sessions written by pi 0.73.1");
  });
});
