// pi 1.5.2's compaction settings (SettingsManager.getCompactionSettings(model):
// global and project settings.json merged, compaction.modelOverrides["provider/id"],
// errors on token values that are not non-negative safe integers) against
// `semanticsFor("1.5").resolveCompactionSettings`, on seeded random settings files.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { semanticsFor } from "../../../src/core/agent/index.js";
import { createSeededRandom, type SeededRandom } from "../../support/seeded-random.js";
import { describePi15 } from "../../support/pi15/oracle.js";

const CASES = 150;
const MODELS = ["anthropic/claude-sonnet-4-5", "openai/gpt-5.1-codex", "loopback/a/b"];
const dir = mkdtempSync(join(tmpdir(), "pi15-settings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const counts = { cases: 0, answers: 0, errors: 0 };
afterAll(() => console.log(`pi 1.5.2 compaction settings: ${JSON.stringify(counts)}`));

function tokenValue(rng: SeededRandom): unknown {
  const roll = rng.next();
  if (roll < 0.55) return rng.pick([0, 1, 2000, 16384, 20000, 123456, Number.MAX_SAFE_INTEGER]);
  return rng.pick([-1, 1.5, "2000", null, true, 2 ** 53, [], {}]);
}

function maybe<T>(rng: SeededRandom, p: number, make: () => T): T | undefined {
  return rng.chance(p) ? make() : undefined;
}

function override(rng: SeededRandom): unknown {
  if (rng.chance(0.12)) return rng.pick([5, null, "x", [1]]);
  return { reserveTokens: maybe(rng, 0.5, () => tokenValue(rng)), keepRecentTokens: maybe(rng, 0.5, () => tokenValue(rng)) };
}

function settingsFile(rng: SeededRandom): unknown {
  if (rng.chance(0.08)) return rng.pick([5, "compaction", []]);
  const compaction = rng.chance(0.1)
    ? rng.pick([7, "off", null])
    : {
        enabled: maybe(rng, 0.4, () => rng.pick([true, false, true, "no", 0, null])),
        reserveTokens: maybe(rng, 0.5, () => tokenValue(rng)),
        keepRecentTokens: maybe(rng, 0.5, () => tokenValue(rng)),
        modelOverrides: maybe(rng, 0.6, () =>
          rng.chance(0.1) ? rng.pick([3, "x", null]) : Object.fromEntries(MODELS.filter(() => rng.chance(0.5)).map((m) => [m, override(rng)])),
        ),
      };
  return { theme: "dark", ...(compaction === undefined ? {} : { compaction }) };
}

function write(file: string, rng: SeededRandom): void {
  const roll = rng.next();
  if (roll < 0.15) return; // no file
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, roll < 0.2 ? "{ not json" : JSON.stringify(settingsFile(rng), null, 2));
}

describePi15("compaction settings equal pi 1.5.2's getCompactionSettings(model)", (oracle) => {
  it.each(Array.from({ length: CASES }, (_, i) => 31_001 + i))("seed %i", async (seed) => {
    const rng = createSeededRandom(seed);
    const agentDir = join(dir, String(seed), "agent");
    const cwd = join(dir, String(seed), "project");
    mkdirSync(agentDir, { recursive: true });
    mkdirSync(cwd, { recursive: true });
    write(join(agentDir, "settings.json"), rng);
    write(join(cwd, ".pi", "settings.json"), rng);
    const models = [null, ...MODELS];
    const answers = await oracle().compactionSettings(cwd, agentDir, models);
    for (const answer of answers) {
      let ours: { settings: unknown } | { error: string };
      try {
        ours = { settings: semanticsFor("1.5").resolveCompactionSettings({ agentDir, cwd }, answer.model ?? undefined).settings };
      } catch (error) {
        ours = { error: (error as Error).message };
      }
      // pi hands `enabled` on as written and only ever tests its truthiness (shouldCompact,
      // _checkCompaction): "no" compacts, 0 does not. Our settings are typed, so compare that.
      const theirs = "error" in answer ? { error: answer.error } : { settings: { ...answer.settings, enabled: Boolean(answer.settings.enabled) } };
      expect(ours, `seed ${seed} model ${answer.model}`).toStrictEqual(theirs);
      counts.answers++;
      if ("error" in answer) counts.errors++;
    }
    counts.cases++;
  });
});
