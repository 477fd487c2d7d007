// The 14 session files pi 1.5.2's own SessionManager wrote (shared/fixtures/pi-1.5,
// copied to test/fixtures/pi-1.5) against pi 1.5.2's answers in expected.json:
// context, convertToLlm, both token estimates, prepareCompaction at the default
// settings and at keepRecentTokens 2000, and 06's branch preparation at three budgets.
// Every expected value is read from expected.json.

import { createHash } from "node:crypto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { branchSourceFromSession, collectEntriesForBranchSummary } from "../../../src/core/branch/index.js";
import { computeFileLists } from "../../../src/core/compaction/index.js";
import { semanticsFor } from "../../../src/core/agent/index.js";
import { estimateContextTokens } from "../../../src/core/agent/pi-1.5/projected-tokens.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { PI15_FIXTURES_DIR, readPi15Expected } from "../../support/pi15/expected-fixtures.js";

const DIR = PI15_FIXTURES_DIR;
const expected = readPi15Expected();
const pi15 = semanticsFor("1.5");

const kind = (entry: SessionEntry | undefined): string =>
  entry?.type === "message" ? `message:${(entry.message as { role: string }).role}` : String(entry?.type);
const roles = (messages: readonly unknown[]): string[] => messages.map((m) => (m as { role: string }).role);

describe("pi 1.5.2 fixtures (expected.json)", () => {
  it("has all 14 files", () => {
    expect(Object.keys(expected.files)).toHaveLength(14);
  });

  for (const [name, want] of Object.entries(expected.files)) {
    describe(name, () => {
      const session = openSessionSync(join(DIR, name));
      const path = session.pathTo(want.leafId);

      it("leaf, context (roles, model, thinking level) and convertToLlm roles", () => {
        expect(session.index.leafId).toBe(want.leafId);
        const context = pi15.buildSessionContext(path);
        expect(context.messages).toHaveLength(want.buildSessionContext.messageCount);
        expect(roles(context.messages)).toEqual(want.buildSessionContext.roles);
        expect(context.model).toEqual(want.buildSessionContext.model);
        expect(context.thinkingLevel).toBe(want.buildSessionContext.thinkingLevel);
        expect(roles(pi15.convertToLlm(context.messages))).toEqual(want.convertToLlmRoles);
      });

      it("estimateContextTokens and estimateProjectedContextTokens", () => {
        expect(estimateContextTokens(pi15.buildSessionContext(path).messages).tokens).toBe(want.estimateContextTokens);
        expect(pi15.contextTokens(path).tokens).toBe(want.estimateProjectedContextTokens);
      });

      for (const [label, settings, prep] of [
        ["default settings", expected.settings.default, want.prepareCompaction.default],
        ["keepRecentTokens 2000", expected.settings.keep2000, want.prepareCompaction.keepRecentTokens2000],
      ] as const) {
        it(`prepareCompaction at ${label}`, () => {
          const plan = pi15.planCompaction(path, settings);
          expect(plan.compactable).toBe(prep.compactable);
          if (!plan.compactable) return;
          const p = plan.preparation;
          const described = pi15.describePreparation(plan);
          if (!described.compactable) throw new Error("described as not compactable");
          expect(p.firstKeptEntryId).toBe(prep.firstKeptEntryId);
          expect(kind(session.entry(p.firstKeptEntryId))).toBe(prep.firstKeptEntry);
          expect(p.isSplitTurn).toBe(prep.isSplitTurn);
          expect(p.tokensBefore).toBe(prep.tokensBefore);
          expect(p.messagesToSummarize).toHaveLength(prep.messagesToSummarize!);
          expect(roles(p.messagesToSummarize)).toEqual(prep.messagesToSummarizeRoles);
          expect(p.turnPrefixMessages).toHaveLength(prep.turnPrefixMessages!);
          expect(roles(p.turnPrefixMessages)).toEqual(prep.turnPrefixRoles);
          expect(p.previousSummary !== undefined).toBe(prep.previousSummary);
          expect(described.readFiles).toEqual(prep.readFiles);
          expect(described.modifiedFiles).toEqual(prep.modifiedFiles);
          expect(described.serializedHistory).toHaveLength(prep.serializedHistoryChars!);
          expect(described.serializedTurnPrefix).toHaveLength(prep.serializedTurnPrefixChars!);
        });
      }

      for (const [caseName, branch] of Object.entries(want.branchSummary ?? {})) {
        it(`branch preparation ${caseName}: collected entries and prepareBranchEntries at budgets 0, 128000-16384, 1500`, () => {
          const collected = collectEntriesForBranchSummary(branchSourceFromSession(session), branch.oldLeafId, branch.targetId);
          expect(collected.commonAncestorId).toBe(branch.commonAncestorId);
          expect(collected.entries.map(kind)).toEqual(branch.entries);
          for (const [budget, want] of [
            [0, branch.budget0],
            [128000 - 16384, branch.budgetDefault],
            [1500, branch.budget1500],
          ] as const) {
            const prepared = pi15.prepareBranchEntries(collected.entries, budget);
            expect(prepared.messages).toHaveLength(want.messages);
            expect(roles(prepared.messages)).toEqual(want.roles);
            expect(prepared.totalTokens).toBe(want.totalTokens);
            expect(computeFileLists(prepared.fileOps)).toEqual(want.files);
            const text = pi15.serializeConversation(pi15.convertToLlm(prepared.messages));
            expect(text).toHaveLength(want.serializedChars);
            expect(createHash("sha1").update(text).digest("hex").slice(0, want.serializedSha1.length)).toBe(want.serializedSha1);
          }
        });
      }
    });
  }
});
