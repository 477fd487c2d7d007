// One session, compared with pi 0.73.1 on everything this core decides:
// context, tokens, cut points, compaction preparation, branch preparation.
// pi and our core each parse the file text themselves, so pass-through
// messages are never the same objects on both sides.

import { expect } from "vitest";
import type { SessionEntry } from "../../src/core/session/format/types.js";
import { buildSessionContext } from "../../src/core/context/build-session-context.js";
import { convertToLlm } from "../../src/core/context/convert-to-llm.js";
import { branchPath, indexEntriesById } from "../../src/core/context/path-walk.js";
import type { ContextMessage } from "../../src/core/context/context-message.js";
import { estimateTokens } from "../../src/core/tokens/estimate-tokens.js";
import { estimateContextTokens, getLastAssistantUsage } from "../../src/core/tokens/context-tokens.js";
import { findCutPoint, findTurnStartIndex } from "../../src/core/compaction/cut-points.js";
import { prepareCompaction } from "../../src/core/compaction/prepare-compaction.js";
import { computeFileLists } from "../../src/core/compaction/file-ops.js";
import { serializeConversation } from "../../src/core/compaction/serialize-conversation.js";
import { describePreparation } from "../../src/core/compaction/describe-preparation.js";
import {
  branchSourceFromEntries,
  collectEntriesForBranchSummary,
  type BranchSource,
} from "../../src/core/branch/collect-entries.js";
import { prepareBranchEntries } from "../../src/core/branch/prepare-branch-entries.js";
import { fileOpsAsLists, type PiBranchSource, type PiOracle } from "./pi-oracle.js";
import type { SeededRandom } from "./seeded-random.js";

export const KEEP_RECENT_VALUES = [1, 500, 5000, 20000, 50000];
export const PREPARE_KEEP_VALUES = [1, 500, 5000, 20000];
export const BRANCH_BUDGETS = [0, 100, 1000, 10000];

/** How many values were compared, per kind. */
export type ComparisonCounts = Record<string, number>;

export function countInto(counts: ComparisonCounts, kind: string, n = 1): void {
  counts[kind] = (counts[kind] ?? 0) + n;
}

export interface SessionPair {
  /** Entries as pi reads them (parseSessionEntries + migrateSessionEntries). */
  pi: SessionEntry[];
  /** Entries as our side reads them (independently parsed). */
  ours: SessionEntry[];
  /** pi's SessionManager opened on the same file (its getBranch and getEntry). */
  piBranch: PiBranchSource;
  /** Our side's own branch lookups (e.g. the session reader's pathTo); default: walked over `ours`. */
  ourBranch?: BranchSource;
}

/** Leaves worth testing: last entry, tree leaves, compactions, and a few random entries. */
export function chooseLeaves(entries: readonly SessionEntry[], rng: SeededRandom, maxTreeLeaves = 6): string[] {
  const parents = new Set(entries.map((e) => e.parentId));
  const treeLeaves = entries.filter((e) => !parents.has(e.id)).map((e) => e.id);
  const chosen = new Set<string>([entries[entries.length - 1]!.id]);
  for (const id of treeLeaves.slice(-maxTreeLeaves)) chosen.add(id);
  for (const e of entries) if (e.type === "compaction") chosen.add(e.id);
  for (let i = 0; i < 3; i++) chosen.add(rng.pick(entries).id);
  return [...chosen];
}

export function compareContext(oracle: PiOracle, pair: SessionPair, leafId: string | null | undefined, counts: ComparisonCounts): void {
  const theirs = oracle.buildSessionContext(pair.pi, leafId);
  const ours = buildSessionContext(pair.ours, leafId);
  expect(ours.messages).toStrictEqual(theirs.messages);
  expect(ours.thinkingLevel).toBe(theirs.thinkingLevel);
  expect(ours.model).toStrictEqual(theirs.model);
  expect(convertToLlm(ours.messages)).toStrictEqual(oracle.convertToLlm(theirs.messages));
  countInto(counts, "context (messages, llm messages, thinkingLevel, model)");

  theirs.messages.forEach((m, i) => expect(estimateTokens(ours.messages[i] as ContextMessage)).toBe(oracle.estimateTokens(m)));
  countInto(counts, "estimateTokens per message", theirs.messages.length);
  expect(estimateContextTokens(ours.messages)).toStrictEqual(oracle.estimateContextTokens(theirs.messages));
  countInto(counts, "estimateContextTokens");
}

export function compareBranchPreparation(
  oracle: PiOracle,
  pair: SessionPair,
  leafId: string,
  counts: ComparisonCounts,
): void {
  const theirPath = pair.piBranch.getBranch(leafId);
  const ourPath = pair.ourBranch ? pair.ourBranch.getBranch(leafId) : branchPath(leafId, indexEntriesById(pair.ours));
  expect(ourPath.map((e) => e.id)).toStrictEqual(theirPath.map((e) => e.id));
  countInto(counts, "branch path");

  expect(getLastAssistantUsage(ourPath) ?? null).toStrictEqual(oracle.getLastAssistantUsage(theirPath) ?? null);
  countInto(counts, "getLastAssistantUsage");

  const prevCompaction = theirPath.map((e) => e.type).lastIndexOf("compaction");
  const starts = new Set([0, Math.max(0, prevCompaction)]);
  for (const start of starts) {
    for (const keep of KEEP_RECENT_VALUES) {
      expect(findCutPoint(ourPath, start, ourPath.length, keep)).toStrictEqual(
        oracle.findCutPoint(theirPath, start, theirPath.length, keep),
      );
      countInto(counts, "findCutPoint");
    }
    const at = theirPath.length - 1;
    expect(findTurnStartIndex(ourPath, at, start)).toBe(oracle.findTurnStartIndex(theirPath, at, start));
    countInto(counts, "findTurnStartIndex");
  }

  for (const keep of PREPARE_KEEP_VALUES) {
    const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: keep };
    comparePreparation(oracle, ourPath, theirPath, settings, counts);
  }
}

function comparePreparation(
  oracle: PiOracle,
  ourPath: SessionEntry[],
  theirPath: SessionEntry[],
  settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number },
  counts: ComparisonCounts,
): void {
  const theirs = oracle.prepareCompaction(theirPath, settings);
  const ours = prepareCompaction(ourPath, settings);
  countInto(counts, "prepareCompaction");
  if (!theirs) {
    expect(ours).toBeUndefined();
    countInto(counts, "prepareCompaction → undefined (both)");
    return;
  }
  expect(ours).toBeDefined();
  if (!ours) return;
  expect(ours.firstKeptEntryId).toBe(theirs.firstKeptEntryId);
  expect(ours.isSplitTurn).toBe(theirs.isSplitTurn);
  expect(ours.tokensBefore).toBe(theirs.tokensBefore);
  expect(ours.previousSummary).toBe(theirs.previousSummary);
  expect(ours.messagesToSummarize).toStrictEqual(theirs.messagesToSummarize);
  expect(ours.turnPrefixMessages).toStrictEqual(theirs.turnPrefixMessages);
  expect(ours.fileOps).toStrictEqual(fileOpsAsLists(theirs.fileOps));
  const theirFiles = oracle.computeFileLists(theirs.fileOps);
  expect(computeFileLists(ours.fileOps)).toStrictEqual(theirFiles);
  const theirHistory = oracle.serializeConversation(oracle.convertToLlm(theirs.messagesToSummarize));
  const theirPrefix = oracle.serializeConversation(oracle.convertToLlm(theirs.turnPrefixMessages));
  expect(serializeConversation(convertToLlm(ours.messagesToSummarize))).toBe(theirHistory);
  expect(serializeConversation(convertToLlm(ours.turnPrefixMessages))).toBe(theirPrefix);

  // The CLI's `prepare --json` fields, rebuilt from pi's preparation.
  expect(describePreparation(ours)).toStrictEqual({
    compactable: true,
    firstKeptEntryId: theirs.firstKeptEntryId,
    isSplitTurn: theirs.isSplitTurn,
    tokensBefore: theirs.tokensBefore,
    messagesToSummarize: theirs.messagesToSummarize.length,
    turnPrefixMessages: theirs.turnPrefixMessages.length,
    previousSummary: theirs.previousSummary ?? null,
    readFiles: theirFiles.readFiles,
    modifiedFiles: theirFiles.modifiedFiles,
    serializedHistory: theirHistory,
    serializedTurnPrefix: theirPrefix,
  });
  countInto(counts, "prepareCompaction fields (11 each)");
  if (theirs.isSplitTurn) countInto(counts, "prepareCompaction with split turn");
  if (theirs.previousSummary !== undefined) countInto(counts, "prepareCompaction after a previous compaction");
}

export function compareBranchSummaryEntries(
  oracle: PiOracle,
  pair: SessionPair,
  oldLeafId: string | null,
  targetId: string,
  counts: ComparisonCounts,
): void {
  const theirs = oracle.collectEntriesForBranchSummary(pair.piBranch, oldLeafId, targetId);
  const ours = collectEntriesForBranchSummary(pair.ourBranch ?? branchSourceFromEntries(pair.ours), oldLeafId, targetId);
  expect(ours.commonAncestorId).toBe(theirs.commonAncestorId);
  expect(ours.entries).toStrictEqual(theirs.entries);
  countInto(counts, "collectEntriesForBranchSummary");
  if (theirs.commonAncestorId === null && oldLeafId !== null) countInto(counts, "collect with no common ancestor");

  for (const budget of BRANCH_BUDGETS) {
    const theirPrep = oracle.prepareBranchEntries(theirs.entries, budget);
    const ourPrep = prepareBranchEntries(ours.entries, budget);
    expect(ourPrep.messages).toStrictEqual(theirPrep.messages);
    expect(ourPrep.fileOps).toStrictEqual(fileOpsAsLists(theirPrep.fileOps));
    expect(ourPrep.totalTokens).toBe(theirPrep.totalTokens);
    countInto(counts, "prepareBranchEntries");
  }
}
