// One session, compared with pi 1.5.2 on everything `semanticsFor("1.5")`
// decides: context (messages, LLM messages, model, thinking level), token
// estimates (per message, estimateContextTokens, estimateProjectedContextTokens),
// the current system message, projected cut points, whole prepareCompaction and
// branch preparation. pi's answers come from the Node 22 oracle (JSON), so our
// values are compared after the same JSON round trip (`asJson`).

import { expect } from "vitest";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { semanticsFor } from "../../../src/core/agent/index.js";
import { buildSessionProjection } from "../../../src/core/agent/pi-1.5/projection.js";
import { findProjectedCutPoint } from "../../../src/core/agent/pi-1.5/projected-cut-point.js";
import { estimateContextTokens } from "../../../src/core/agent/pi-1.5/projected-tokens.js";
import { computeFileLists } from "../../../src/core/compaction/file-ops.js";
import { branchSourceFromEntries, collectEntriesForBranchSummary } from "../../../src/core/branch/collect-entries.js";
import { branchPath, indexEntriesById } from "../../../src/core/context/path-walk.js";
import type { CompactionSettings } from "../../../src/core/settings/compaction-settings.js";
import { countInto, type ComparisonCounts } from "../differential.js";
import { asJson, type Pi15Answers, type Pi15BranchAnswers, type Pi15LeafAnswers } from "./oracle.js";

const semantics = semanticsFor("1.5");

export const DEFAULT_SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
export const SMALL_SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 2000 };
export const CUT_KEEPS = [1, 500, 2000, 5000, 20000];
/** pi's branch budget with its defaults: contextWindow (128000 when unknown) − branchSummary.reserveTokens. */
export const DEFAULT_BRANCH_BUDGET = 128000 - 16384;

/** Compares every leaf and branch pair pi answered for `ours` (the file's entries as we parse them). */
export function compareAnswers(ours: readonly SessionEntry[], answers: Pi15Answers, where: string, counts: ComparisonCounts): void {
  const byId = indexEntriesById(ours);
  expect(ours.map((e) => e.id), `${where}: entry ids`).toStrictEqual(answers.entryIds);
  for (const leaf of answers.leaves) compareLeaf(branchPath(leaf.leafId, byId), leaf, `${where} leaf ${leaf.leafId}`, counts);
  for (const branch of answers.branches) compareBranch(ours, branch, `${where} branch ${branch.oldLeafId}→${branch.targetId}`, counts);
}

function compareLeaf(path: SessionEntry[], pi: Pi15LeafAnswers, where: string, counts: ComparisonCounts): void {
  expect(path.map((e) => e.id), `${where}: branch path`).toStrictEqual(pi.path);
  countInto(counts, "branch path");

  const context = semantics.buildSessionContext(path);
  expect(asJson(context.messages), `${where}: buildSessionContext messages`).toStrictEqual(pi.context.messages);
  expect(context.thinkingLevel, `${where}: thinking level`).toBe(pi.context.thinkingLevel);
  expect(asJson(context.model), `${where}: model`).toStrictEqual(pi.context.model);
  expect(asJson(semantics.convertToLlm(context.messages)), `${where}: convertToLlm`).toStrictEqual(pi.llm);
  countInto(counts, "context (messages, llm messages, model, thinking level)");

  const tokens = context.messages.map((m) => semantics.estimateTokens(m));
  expect(tokens, `${where}: estimateTokens per message`).toStrictEqual(pi.tokens);
  countInto(counts, "estimateTokens per message", pi.tokens.length);
  expect(asJson(estimateContextTokens(context.messages)), `${where}: estimateContextTokens`).toStrictEqual(pi.estimateContextTokens);
  countInto(counts, "estimateContextTokens");
  expect(asJson(semantics.contextTokens(path)), `${where}: estimateProjectedContextTokens`).toStrictEqual(pi.projectedContextTokens);
  countInto(counts, "estimateProjectedContextTokens");
  const system = asJson(semantics.currentSystemMessage(path)) ?? null;
  expect(system, `${where}: getCurrentSystemMessage`).toStrictEqual(pi.currentSystemMessage);
  // What a compaction entry stores: the same JSON text, key order included (sections re-added after a null move last).
  expect(JSON.stringify(system), `${where}: getCurrentSystemMessage as written`).toBe(JSON.stringify(pi.currentSystemMessage));
  countInto(counts, "getCurrentSystemMessage");

  const projection = buildSessionProjection(path);
  expect(projection.entries.map((e) => e.sourceEntry.id), `${where}: projected entries`).toStrictEqual(pi.projectedEntryIds);
  for (const { start, keep, cut } of pi.cutPoints) {
    const ourCut = findProjectedCutPoint(projection.entries, start, projection.entries.length, keep);
    expect(asJson(ourCut), `${where}: findProjectedCutPoint(start ${start}, keep ${keep})`).toStrictEqual(cut);
    countInto(counts, "findProjectedCutPoint");
  }

  for (const { settings, preparation } of pi.preparations) {
    comparePreparation(path, settings, preparation, `${where} keepRecentTokens ${settings.keepRecentTokens}`, counts);
  }
}

function comparePreparation(
  path: SessionEntry[],
  settings: CompactionSettings,
  pi: Pi15LeafAnswers["preparations"][number]["preparation"],
  where: string,
  counts: ComparisonCounts,
): void {
  const plan = semantics.planCompaction(path, settings);
  countInto(counts, "prepareCompaction");
  if (pi === null) {
    expect(plan.compactable, `${where}: pi 1.5.2 says nothing to compact, we say ${JSON.stringify(semantics.describePreparation(plan)).slice(0, 300)}`).toBe(false);
    countInto(counts, "prepareCompaction → nothing to compact (both)");
    return;
  }
  expect(plan.compactable, `${where}: pi 1.5.2 compacts (first kept ${pi.firstKeptEntryId}), we say ${plan.compactable ? "" : plan.reason}`).toBe(true);
  if (!plan.compactable) return;
  const ours = plan.preparation;
  expect(ours.firstKeptEntryId, `${where}: firstKeptEntryId`).toBe(pi.firstKeptEntryId);
  expect(ours.isSplitTurn, `${where}: isSplitTurn`).toBe(pi.isSplitTurn);
  expect(ours.tokensBefore, `${where}: tokensBefore`).toBe(pi.tokensBefore);
  expect(ours.previousSummary, `${where}: previousSummary`).toBe(pi.previousSummary);
  expect(asJson(ours.messagesToSummarize), `${where}: messagesToSummarize`).toStrictEqual(pi.messagesToSummarize);
  expect(asJson(ours.turnPrefixMessages), `${where}: turnPrefixMessages`).toStrictEqual(pi.turnPrefixMessages);
  expect(ours.fileOps, `${where}: fileOps`).toStrictEqual(pi.fileOps);
  expect(computeFileLists(ours.fileOps), `${where}: computeFileLists`).toStrictEqual(pi.files);
  expect(asJson(ours.settings), `${where}: settings`).toStrictEqual(pi.settings);
  const history = semantics.serializeConversation(semantics.convertToLlm(ours.messagesToSummarize));
  const prefix = semantics.serializeConversation(semantics.convertToLlm(ours.turnPrefixMessages));
  expect(history, `${where}: serialized history`).toBe(pi.serializedHistory);
  expect(prefix, `${where}: serialized turn prefix`).toBe(pi.serializedTurnPrefix);
  expect(semantics.describePreparation(plan), `${where}: prepare --json`).toStrictEqual({
    compactable: true,
    firstKeptEntryId: pi.firstKeptEntryId,
    isSplitTurn: pi.isSplitTurn,
    tokensBefore: pi.tokensBefore,
    messagesToSummarize: pi.messagesToSummarize.length,
    turnPrefixMessages: pi.turnPrefixMessages.length,
    previousSummary: pi.previousSummary ?? null,
    readFiles: pi.files.readFiles,
    modifiedFiles: pi.files.modifiedFiles,
    serializedHistory: pi.serializedHistory,
    serializedTurnPrefix: pi.serializedTurnPrefix,
  });
  countInto(counts, "prepareCompaction fields (13 each)");
  countInto(counts, `prepareCompaction compactable at keepRecentTokens ${settings.keepRecentTokens === 20000 ? "20000 (default)" : settings.keepRecentTokens === 2000 ? "2000" : "random"}`);
  if (pi.isSplitTurn) countInto(counts, "prepareCompaction with split turn");
  if (pi.previousSummary !== undefined) countInto(counts, "prepareCompaction after a previous compaction");
}

function compareBranch(ours: readonly SessionEntry[], pi: Pi15BranchAnswers, where: string, counts: ComparisonCounts): void {
  const collected = collectEntriesForBranchSummary(branchSourceFromEntries(ours), pi.oldLeafId, pi.targetId);
  expect(collected.commonAncestorId, `${where}: commonAncestorId`).toBe(pi.collected.commonAncestorId);
  expect(asJson(collected.entries), `${where}: collectEntriesForBranchSummary`).toStrictEqual(pi.collected.entries);
  countInto(counts, "collectEntriesForBranchSummary");
  for (const prepared of pi.prepared) {
    const prep = semantics.prepareBranchEntries(collected.entries, prepared.budget);
    const at = `${where} budget ${prepared.budget}`;
    expect(asJson(prep.messages), `${at}: prepareBranchEntries messages`).toStrictEqual(prepared.messages);
    expect(prep.fileOps, `${at}: prepareBranchEntries fileOps`).toStrictEqual(prepared.fileOps);
    expect(computeFileLists(prep.fileOps), `${at}: file lists`).toStrictEqual(prepared.files);
    expect(prep.totalTokens, `${at}: totalTokens`).toBe(prepared.totalTokens);
    expect(semantics.serializeConversation(semantics.convertToLlm(prep.messages)), `${at}: serialized`).toBe(prepared.serialized);
    countInto(counts, "prepareBranchEntries");
  }
}
