// Round trips on random sessions written by pi 1.5.2's own SessionManager
// (system deltas, context edits, usage entries, 1.5 compactions, branch
// summaries…): our compaction (digest, keepRecentTokens 1000), navigation and
// branch summary with the 1.5 writers, re-opened by pi 1.5.2. Every old entry
// is kept; the compaction equals pi's prepareCompaction and pi's own
// appendCompaction entry field by field; navigation resumes with pi's context
// at the target; the branch summary equals pi's branchWithSummary entry.

import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { runBranchSummary, runCompaction, runNavigate } from "../../../src/core/write/index.js";
import { createSeededRandom } from "../../support/seeded-random.js";
import { asJson, describePi15 } from "../../support/pi15/oracle.js";

const work = mkdtempSync(join(tmpdir(), "pi15-write-random-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const SETTINGS = { enabled: true, reserveTokens: 16384, keepRecentTokens: 1000 };
const SEEDS = Array.from({ length: 12 }, (_, i) => 9100 + i);
type Entry = Record<string, unknown> & { id: string; type: string; parentId: string | null };

/** pi's arguments travel as JSON: a missing `usage` argument arrives as null (a digest calls no model). */
function withoutNullUsage(entry: Entry): Entry {
  const { usage, ...rest } = entry;
  return (usage === null ? rest : entry) as Entry;
}

function comparable(entry: Entry): Entry {
  const { id: _id, timestamp: _t, ...rest } = asJson(entry);
  const system = rest.systemMessage as Record<string, unknown> | undefined;
  if (system) rest.systemMessage = { ...system, timestamp: "(entry time)" };
  return rest as Entry;
}

describePi15("1.5 writers on random pi 1.5.2 sessions", (oracle) => {
  const tally = { compacted: 0, notCompactable: 0, navigated: 0, summarised: 0, withCheckpoint: 0 };

  it.each(SEEDS)("seed %i", async (seed) => {
    const seedDir = join(work, String(seed));
    mkdirSync(seedDir);
    const generated = await oracle().generate(seed, seedDir);
    const rng = createSeededRandom(seed);
    const { copyFileSync } = await import("node:fs");
    const fresh = (label: string): string => {
      const path = join(seedDir, `${label}.jsonl`);
      copyFileSync(generated.path, path);
      return path;
    };

    // Compaction at the leaf.
    {
      const file = fresh("compact");
      const before = await oracle().loadBack(file);
      const leaf = before.leafId!;
      const piPrep = (await oracle().answers({ file, leaves: [leaf], settings: [SETTINGS], cutKeeps: [], branchPairs: [], branchBudgets: [] })).leaves[0]!.preparations[0]!.preparation;
      const result = await runCompaction({ session: openSessionSync(file), piVersion: "1.5", agentDir: seedDir, settings: SETTINGS, summarizer: { digest: true } }).catch((e: unknown) => e);
      if (result instanceof Error) {
        // Ours says nothing to compact exactly when pi 1.5.2 does.
        expect(piPrep === null || (piPrep.messagesToSummarize.length === 0 && piPrep.turnPrefixMessages.length === 0), String(result)).toBe(true);
        tally.notCompactable++;
      } else {
        const ours = (result as { entry: Entry }).entry;
        expect(ours).toMatchObject({ firstKeptEntryId: piPrep!.firstKeptEntryId, tokensBefore: piPrep!.tokensBefore });
        const after = await oracle().loadBack(file);
        expect(after.entries.slice(0, -1)).toEqual(before.entries);
        expect(after.leafId).toBe(ours.id);
        const roles = after.context.messages.map((m) => m.role);
        if (before.currentSystemMessage) {
          expect(roles.slice(0, 2)).toEqual(["system", "compactionSummary"]);
          tally.withCheckpoint++;
        } else expect(roles[0]).toBe("compactionSummary");
        const c = ours as unknown as { summary: string; firstKeptEntryId: string; tokensBefore: number; details: unknown };
        const piWrote = await oracle().appendCompaction([before.header, ...before.entries], leaf, { ...c, fromHook: false });
        expect(comparable(ours)).toEqual(comparable(withoutNullUsage(piWrote.entry!)));
        tally.compacted++;
      }
    }

    // Navigation to a random entry.
    {
      const file = fresh("navigate");
      const before = await oracle().loadBack(file);
      const target = rng.pick(before.entries.map((e) => e.id));
      const result = runNavigate({ session: openSessionSync(file), piVersion: "1.5", targetId: target });
      const after = await oracle().loadBack(file);
      if (result.written) expect(after.entries.slice(0, -1)).toEqual(before.entries);
      else expect(after.entries).toEqual(before.entries);
      if (result.newLeafId !== null) {
        const at = (await oracle().answers({ file, leaves: [result.newLeafId], settings: [], cutKeeps: [], branchPairs: [], branchBudgets: [] })).leaves[0]!;
        expect(after.context).toEqual(at.context);
      }
      tally.navigated++;
    }

    // Branch summary to a random entry.
    {
      const file = fresh("branch");
      const before = await oracle().loadBack(file);
      const oldLeaf = before.leafId!;
      const target = rng.pick(before.entries.map((e) => e.id));
      const result = await runBranchSummary({ session: openSessionSync(file), piVersion: "1.5", targetId: target, agentDir: seedDir, summarizer: { digest: true } });
      if (result.entry) {
        const ours = result.entry as unknown as Entry & { summary: string; details: unknown };
        expect(ours).toMatchObject({ parentId: result.newLeafId, fromId: oldLeaf });
        const after = await oracle().loadBack(file);
        expect(after.entries.slice(0, -1)).toEqual(before.entries);
        expect(after.context.messages.at(-1)).toMatchObject({ role: "branchSummary", summary: ours.summary });
        const piWrote = await oracle().branchWithSummary([before.header, ...before.entries], oldLeaf, { branchFromId: result.newLeafId, summary: ours.summary, details: ours.details, fromHook: false });
        expect(comparable(ours)).toEqual(comparable(withoutNullUsage(piWrote.entry!)));
        tally.summarised++;
      }
    }
  });

  it("covered compactions with a checkpoint, navigations and branch summaries", () => {
    console.info(`1.5 write round trips: ${JSON.stringify(tally)}`);
    expect(tally.compacted).toBeGreaterThanOrEqual(4);
    expect(tally.withCheckpoint).toBeGreaterThanOrEqual(2);
    expect(tally.navigated).toBe(SEEDS.length);
    expect(tally.summarised).toBeGreaterThanOrEqual(3);
  });
});
