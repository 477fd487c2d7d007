// Proves the oracle: the installed pi 1.5.2, driven through our worker, gives
// the answers recorded in expected.json for the 14 files pi 1.5.2 wrote itself
// (recorded independently, by the spec's harness, when the files were made).

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { PI15_FIXTURES_DIR, readPi15Expected } from "../../support/pi15/expected-fixtures.js";
import { describePi15, type Pi15Answers } from "../../support/pi15/oracle.js";

const DIR = `${PI15_FIXTURES_DIR}/`;
const expected = readPi15Expected();
const DEFAULT_BRANCH_BUDGET = 128000 - 16384;

const kind = (entry: { type: string; message?: { role: string } }): string => (entry.type === "message" ? `message:${entry.message!.role}` : entry.type);

describePi15("the pi 1.5.2 oracle reproduces expected.json on the 14 fixtures pi 1.5.2 wrote", (oracle) => {
  it.each(Object.keys(expected.files))("%s", async (name) => {
    const want = expected.files[name]!;
    const file = `${DIR}${name}`;
    const entries = readFileSync(file, "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as { id: string; type: string; message?: { role: string } });
    const byId = new Map(entries.map((e) => [e.id, e]));
    const branches = Object.values(want.branchSummary ?? {});
    const got: Pi15Answers = await oracle().answers({
      file,
      leaves: [want.leafId],
      settings: [expected.settings.default, expected.settings.keep2000],
      cutKeeps: [],
      branchPairs: branches.map((b) => ({ oldLeafId: b.oldLeafId, targetId: b.targetId })),
      branchBudgets: [0, DEFAULT_BRANCH_BUDGET, 1500],
    });
    expect(got.leafId).toBe(want.leafId);
    const leaf = got.leaves[0]!;
    expect(leaf.context.messages.map((m) => m.role)).toEqual(want.buildSessionContext.roles);
    expect(leaf.context.messages).toHaveLength(want.buildSessionContext.messageCount);
    expect(leaf.context.model).toEqual(want.buildSessionContext.model);
    expect(leaf.context.thinkingLevel).toBe(want.buildSessionContext.thinkingLevel);
    expect(leaf.llm.map((m) => m.role)).toEqual(want.convertToLlmRoles);
    expect(leaf.estimateContextTokens.tokens).toBe(want.estimateContextTokens);
    expect(leaf.projectedContextTokens.tokens).toBe(want.estimateProjectedContextTokens);

    const plans = [want.prepareCompaction.default, want.prepareCompaction.keepRecentTokens2000];
    plans.forEach((plan, i) => {
      const prep = leaf.preparations[i]!.preparation;
      if (!plan.compactable) {
        expect(prep).toBeNull();
        return;
      }
      expect(prep).not.toBeNull();
      expect({
        firstKeptEntryId: prep!.firstKeptEntryId,
        firstKeptEntry: kind(byId.get(prep!.firstKeptEntryId)!),
        isSplitTurn: prep!.isSplitTurn,
        tokensBefore: prep!.tokensBefore,
        messagesToSummarize: prep!.messagesToSummarize.length,
        messagesToSummarizeRoles: prep!.messagesToSummarize.map((m) => m.role),
        turnPrefixMessages: prep!.turnPrefixMessages.length,
        turnPrefixRoles: prep!.turnPrefixMessages.map((m) => m.role),
        previousSummary: prep!.previousSummary !== undefined,
        readFiles: prep!.files.readFiles,
        modifiedFiles: prep!.files.modifiedFiles,
        serializedHistoryChars: prep!.serializedHistory.length,
        serializedTurnPrefixChars: prep!.serializedTurnPrefix.length,
      }).toEqual({ ...plan, compactable: undefined });
    });

    branches.forEach((b, i) => {
      const answer = got.branches[i]!;
      expect(answer.collected.commonAncestorId).toBe(b.commonAncestorId);
      expect(answer.collected.entries.map(kind)).toEqual(b.entries);
      [b.budget0, b.budgetDefault, b.budget1500].forEach((budget, j) => {
        const prep = answer.prepared[j]!;
        expect({
          files: prep.files,
          messages: prep.messages.length,
          roles: prep.messages.map((m) => m.role),
          serializedChars: prep.serialized.length,
          serializedSha1: createHash("sha1").update(prep.serialized).digest("hex").slice(0, 12),
          totalTokens: prep.totalTokens,
        }).toEqual(budget);
      });
    });
  });
});
