// Proves the omp oracle: the installed omp 18.3.4, driven through our worker,
// gives the answers recorded in expected/ for the five files omp wrote itself
// (recorded independently, by the spec's harness, when the files were made),
// field by field, and the full convertToLlm output message by message.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import {
  OMP_FIXTURE_BLOBS,
  OMP_FIXTURES,
  OMP_FIXTURES_DIR,
  agentMessageSummary,
  entryKind,
  llmMessageSummary,
  prefix,
  readOmpExpected,
  readOmpExpectedLlm,
} from "../../support/omp/expected-fixtures.js";
import { describeOmp, type OmpAnswers, type OmpLoadBack, type OmpPreparation } from "../../support/omp/oracle.js";

const KEEPS = [20000, 2000] as const;

function preparationSummary(prep: OmpPreparation | null, entries: { id: string }[]): unknown {
  if (!prep) return null;
  const kept = entries.find((e) => e.id === prep.firstKeptEntryId);
  return {
    firstKeptEntryId: prep.firstKeptEntryId,
    firstKeptKind: kept ? entryKind(kept) : null,
    isSplitTurn: prep.isSplitTurn,
    tokensBefore: prep.tokensBefore,
    messagesToSummarize: prep.messagesToSummarize.length,
    messagesToSummarizeRoles: prep.messagesToSummarize.map((m) => m.role),
    turnPrefixMessages: prep.turnPrefixMessages.length,
    turnPrefixRoles: prep.turnPrefixMessages.map((m) => m.role),
    recentMessages: prep.recentMessages,
    previousSummary: prep.previousSummary === null ? null : prefix(prep.previousSummary, 80),
    readFiles: prep.files.readFiles,
    modifiedFiles: prep.files.modifiedFiles,
    serializedHistoryChars: prep.serializedHistory.length,
    serializedTurnPrefixChars: prep.serializedTurnPrefix.length,
  };
}

describeOmp(
  "the omp 18.3.4 oracle reproduces expected/ on the five fixtures omp wrote",
  (oracle) => {
    it.each(OMP_FIXTURES)("%s", async (name) => {
      const want = readOmpExpected(name);
      const file = join(OMP_FIXTURES_DIR, `${name}.jsonl`);
      const [got, back] = (await Promise.all([
        oracle().answers({ file, settings: KEEPS.map((keepRecentTokens) => ({ keepRecentTokens })) }),
        oracle().loadBack(file),
      ])) as [OmpAnswers, OmpLoadBack];
      const bytes = readFileSync(file);
      expect({ file: `${name}.jsonl`, sha256: got.sha256, bytes: bytes.length }).toEqual({ file: want.file, sha256: want.sha256, bytes: want.bytes });

      expect({ ...got.load, logicalEntries: got.load.entries, entries: undefined }).toEqual({ ...want.load, entries: undefined });
      const types: Record<string, number> = {};
      for (const e of back.entries) types[entryKind(e)] = (types[entryKind(e)] ?? 0) + 1;
      expect(types).toEqual(want.entryTypes);

      if ("error" in got.open) throw new Error(`omp refused to open ${name}: ${got.open.error}`);
      expect({
        sessionId: got.open.sessionId,
        leafId: got.open.leafId,
        entries: got.open.entryIds.length,
        sessionName: got.open.title,
        fileUnchangedAfterOpen: got.open.fileUnchangedAfterOpen,
      }).toEqual(want.open);

      const leaf = got.leaves[0]!;
      expect(leaf.leafId).toBe(want.open.leafId);
      const ctx = leaf.context;
      expect({
        count: ctx.messages.length,
        roles: ctx.messages.map((m) => m.role),
        thinkingLevel: ctx.thinkingLevel,
        configuredThinkingLevel: ctx.configuredThinkingLevel ?? null,
        models: ctx.models,
        mode: ctx.mode,
      }).toEqual({ ...want.context, messages: undefined });
      ctx.messages.forEach((m, i) => expect(agentMessageSummary(m), `context message ${i}`).toEqual(want.context.messages[i]));

      expect({ count: leaf.llm.length, roles: leaf.llm.map((m) => m.role) }).toEqual({ count: want.llm.count, roles: want.llm.roles });
      leaf.llm.forEach((m, i) => expect(llmMessageSummary(m), `llm message ${i}`).toEqual(want.llm.messages[i]));
      const wantLlm = readOmpExpectedLlm(name);
      expect(leaf.llm).toHaveLength(wantLlm.length);
      leaf.llm.forEach((m, i) => expect(m, `full llm message ${i}`).toEqual(wantLlm[i]));
      expect({ count: leaf.transcriptRoles.length, roles: leaf.transcriptRoles }).toEqual(want.transcript);

      const usage = leaf.usage;
      expect({
        perMessage: leaf.tokens.perMessage,
        contextMessagesTotal: leaf.tokens.total,
        lastAssistantUsage: usage && {
          input: usage.lastAssistantUsage.input,
          output: usage.lastAssistantUsage.output,
          totalTokens: usage.lastAssistantUsage.totalTokens,
          calculateContextTokens: usage.contextTokens,
          calculatePromptTokens: usage.promptTokens,
        },
        "threshold@128000": leaf.thresholds.find((t) => t.contextWindow === 128000 && t.settingsIndex === 0)?.thresholdTokens,
        "threshold@200000": leaf.thresholds.find((t) => t.contextWindow === 200000 && t.settingsIndex === 0)?.thresholdTokens,
      }).toEqual({ ...want.tokens, tokenizer: undefined });

      KEEPS.forEach((keep, i) => expect(preparationSummary(leaf.preparations[i]!, back.entries), `prepare keep${keep}`).toEqual(want.prepare[`keep${keep}`]));
    });
  },
  { blobsFrom: [OMP_FIXTURE_BLOBS] },
);
