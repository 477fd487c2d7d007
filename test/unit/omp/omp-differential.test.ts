// The omp differential suite: 220 random sessions written by omp 18.3.4's own
// SessionManager (every entry type, role and compaction method; /clear,
// branches, titles, pruned results, pi files resumed by omp), and at every leaf
// omp answered for (each tip and random entries) our omp semantics must equal
// omp's own code: the path, the context messages and what convertToLlm sends
// (images by the SHA-256 of their bytes, frames read from omp's blob store),
// thinking level and model, token estimates, the last usage, thresholds,
// prepareCompaction at three keep budgets (cut, split, tokensBefore, previous
// summary, both message lists, file lists, serialised transcripts), and branch
// preparation between leaves under two budgets. 100 % equal or the suite fails,
// naming the seed.

import { appendFileSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { collectEntriesForBranchSummary, ompPrepareBranchEntries } from "../../../src/core/agent/omp-18/branch-preparation.js";
import { createOmpSemantics, type OmpSemantics } from "../../../src/core/agent/omp-18/semantics.js";
import { calculateContextTokens, calculatePromptTokens, computeFileLists, getLastAssistantUsage, ompPrepareCompaction, type OmpFileOps } from "../../../src/core/agent/omp-18/prepare-compaction.js";
import { ompConvertToLlm } from "../../../src/core/agent/omp-18/convert-to-llm.js";
import { ompSerializeConversation } from "../../../src/core/agent/omp-18/serialize-conversation.js";
import { countMessageTokens, countMessagesTokens } from "../../../src/core/agent/omp-18/tokenizer.js";
import { effectiveReserveTokens, resolveThresholdTokens, shouldCompact, type OmpCompactionSettings } from "../../../src/core/agent/omp-18/settings.js";
import type { OmpMessage } from "../../../src/core/agent/omp-18/messages.js";
import { openSession, openSessionSync, refreshSession, sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { LiveSessionFacts } from "../../../src/core/live/live-facts.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import type { LoadedSession } from "../../../src/core/session/open/loaded-session.js";
import { generateOmpCorpus, type OmpCorpusItem } from "../../support/omp/corpus.js";
import { describeOmp, digestImages, fastTempDir } from "../../support/omp/oracle.js";
import { cli } from "../cli/run-cli.js";

const SETTINGS = [{}, { keepRecentTokens: 2000 }, { keepRecentTokens: 200 }];
const WINDOWS = [16000, 128000, 200000];
const BUDGETS = [0, 128000 - 16384, 3000];

const json = <T>(value: T): T => digestImages(JSON.parse(JSON.stringify(value)) as T);
const lists = (ops: OmpFileOps) => ({ read: [...ops.read].sort(), written: [...ops.written].sort(), edited: [...ops.edited].sort() });

function ompSettings(s: Record<string, unknown>): OmpCompactionSettings {
  return {
    enabled: s.enabled as boolean,
    reserveTokens: (s.reserveTokens as number | undefined) ?? 16384,
    ...(typeof s.reserveTokens === "number" ? { reserveTokensSet: s.reserveTokens } : {}),
    keepRecentTokens: s.keepRecentTokens as number,
    thresholdPercent: s.thresholdPercent as number,
    thresholdTokens: s.thresholdTokens as number,
    ...(typeof s.strategy === "string" ? { strategy: s.strategy } : {}),
  };
}

interface Mismatch {
  seed: number;
  leaf?: string;
  what: string;
  ours: unknown;
  omps: unknown;
}

let comparisons = 0;

function check(out: Mismatch[], seed: number, leaf: string | undefined, what: string, ours: unknown, omps: unknown): void {
  comparisons++;
  try {
    expect(ours).toEqual(omps);
  } catch {
    out.push({ seed, leaf, what, ours, omps });
  }
}

function compareItem(item: OmpCorpusItem, semantics: OmpSemantics, out: Mismatch[], counts: Record<string, number>): void {
  const { session: generated, answers } = item;
  const seed = generated.seed;
  const session: LoadedSession = sessionFromBytes(readFileSync(generated.path), generated.path);
  const open = answers.open as { leafId: string | null; entryIds: string[] };
  check(out, seed, undefined, "leaf", session.index.leafId, open.leafId);
  check(out, seed, undefined, "entry ids", session.index.entries.map((e) => e.id), open.entryIds);
  const settings = answers.settings.map(ompSettings);
  for (const leaf of answers.leaves) {
    counts.leaves = (counts.leaves ?? 0) + 1;
    const path = session.pathTo(leaf.leafId);
    check(out, seed, leaf.leafId, "path", path.map((e) => e.id), leaf.path);
    const loaded = semantics.asLoaded(path);
    const context = semantics.ompContext(path);
    const { messages, ...rest } = context;
    check(out, seed, leaf.leafId, "context messages", json(messages), leaf.context.messages);
    check(out, seed, leaf.leafId, "thinking level", rest.thinkingLevel, leaf.context.thinkingLevel);
    check(out, seed, leaf.leafId, "configured thinking level", rest.configuredThinkingLevel, leaf.context.configuredThinkingLevel);
    check(out, seed, leaf.leafId, "models", rest.models, leaf.context.models);
    check(out, seed, leaf.leafId, "mode", rest.mode, leaf.context.mode);
    const seam = semantics.buildSessionContext(path);
    const defaultModel = leaf.context.models.default;
    check(out, seed, leaf.leafId, "model", seam.model ? `${seam.model.provider}/${seam.model.modelId}` : undefined, defaultModel);
    check(out, seed, leaf.leafId, "llm messages", json(ompConvertToLlm(messages)), leaf.llm);
    check(out, seed, leaf.leafId, "tokens per message", messages.map((m) => countMessageTokens(m)), leaf.tokens.perMessage);
    check(out, seed, leaf.leafId, "tokens", countMessagesTokens(messages), leaf.tokens.total);
    check(out, seed, leaf.leafId, "tokens without encrypted reasoning", countMessagesTokens(messages, { excludeEncryptedReasoning: true }), leaf.tokens.totalExcludingEncryptedReasoning);
    const usage = getLastAssistantUsage(loaded);
    check(
      out,
      seed,
      leaf.leafId,
      "last usage",
      usage ? { lastAssistantUsage: usage, contextTokens: calculateContextTokens(usage), promptTokens: calculatePromptTokens(usage) } : null,
      leaf.usage,
    );
    const usageTokens = usage ? calculateContextTokens(usage) : null;
    check(
      out,
      seed,
      leaf.leafId,
      "thresholds",
      settings.flatMap((s, settingsIndex) =>
        WINDOWS.map((contextWindow) => ({
          settingsIndex,
          contextWindow,
          thresholdTokens: resolveThresholdTokens(contextWindow, s),
          effectiveReserveTokens: effectiveReserveTokens(contextWindow, s),
          shouldCompactAtUsage: usageTokens === null ? null : shouldCompact(usageTokens, contextWindow, s),
        })),
      ),
      leaf.thresholds,
    );
    settings.forEach((s, i) => {
      const want = leaf.preparations[i];
      const got = ompPrepareCompaction(loaded, s.keepRecentTokens);
      if (!got.compactable) {
        check(out, seed, leaf.leafId, `prepare ${i}`, null, want);
        return;
      }
      counts.preparations = (counts.preparations ?? 0) + 1;
      const p = got.preparation;
      check(
        out,
        seed,
        leaf.leafId,
        `prepare ${i}`,
        json({
          firstKeptEntryId: p.firstKeptEntryId,
          isSplitTurn: p.isSplitTurn,
          tokensBefore: p.tokensBefore,
          previousSummary: p.previousSummary ?? null,
          messagesToSummarize: p.messagesToSummarize,
          turnPrefixMessages: p.turnPrefixMessages,
          recentMessages: p.recentMessages.length,
          fileOps: lists(p.fileOps),
          files: computeFileLists(p.fileOps),
          serializedHistory: ompSerializeConversation(ompConvertToLlm(p.messagesToSummarize)),
          serializedTurnPrefix: ompSerializeConversation(ompConvertToLlm(p.turnPrefixMessages)),
        }),
        want === null ? null : { ...want, recentEntryIds: undefined, filesBlock: undefined },
      );
    });
  }
  for (const branch of answers.branches) {
    counts.branches = (counts.branches ?? 0) + 1;
    const byId = (id: string) => {
      const entry = session.entry(id);
      return entry ? semantics.asLoaded([entry])[0] : undefined;
    };
    const collected = collectEntriesForBranchSummary(byId, (id) => semantics.asLoaded(session.pathTo(id)), branch.oldLeafId, branch.targetId);
    const where = `${branch.oldLeafId}→${branch.targetId}`;
    check(out, seed, where, "branch entries", { commonAncestorId: collected.commonAncestorId, entryIds: collected.entries.map((e: OmpMessage) => e.id) }, { commonAncestorId: branch.commonAncestorId, entryIds: branch.entryIds });
    BUDGETS.forEach((budget, i) => {
      const prepared = ompPrepareBranchEntries(collected.entries, budget);
      check(
        out,
        seed,
        where,
        `branch preparation ${budget}`,
        json({
          budget,
          messages: prepared.messages,
          totalTokens: prepared.totalTokens,
          fileOps: lists(prepared.fileOps),
          files: computeFileLists(prepared.fileOps),
          serialized: ompSerializeConversation(ompConvertToLlm(prepared.messages)),
        }),
        branch.prepared[i],
      );
    });
  }
}

describeOmp("omp 18.3.4 differential: our omp semantics against omp's own code on 220 sessions omp wrote", (oracle) => {
  let dir: string;
  let items: OmpCorpusItem[] = [];
  beforeAll(async () => {
    dir = fastTempDir("omp-differential-");
    ({ items } = await generateOmpCorpus(oracle(), { dir, ask: { settings: SETTINGS, contextWindows: WINDOWS, branchBudgets: BUDGETS } }));
  }, 600_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("equals omp at every leaf and between leaves, 100 %", () => {
    expect(items.length).toBeGreaterThanOrEqual(200);
    const semantics = createOmpSemantics(join(oracle().agentDir, "blobs"));
    const mismatches: Mismatch[] = [];
    const counts: Record<string, number> = {};
    for (const item of items) compareItem(item, semantics, mismatches, counts);
    const shown = mismatches.slice(0, 8).map((m) => `seed ${m.seed} ${m.leaf ?? ""} ${m.what}:\n ours ${JSON.stringify(m.ours)?.slice(0, 600)}\n omp  ${JSON.stringify(m.omps)?.slice(0, 600)}`);
    const kinds = [...new Set(mismatches.map((m) => m.what))];
    console.log(`omp differential: ${items.length} sessions, ${counts.leaves} leaves, ${counts.preparations} compactable preparations, ${counts.branches} branch pairs; ${comparisons} comparisons, ${mismatches.length} mismatches`);
    expect({ mismatches: mismatches.length, kinds, shown }).toEqual({ mismatches: 0, kinds: [], shown: [] });
    expect(counts.leaves).toBeGreaterThan(1000);
    expect(counts.preparations).toBeGreaterThan(200);
  });

  it("the context usage kept over appends equals the recount after every entry of every session, replayed as omp wrote it", async () => {
    const rule = createOmpSemantics(join(oracle().agentDir, "blobs")).contextTokenRule;
    const replayDir = fastTempDir("omp-live-replay-");
    let appends = 0;
    let recounts = 0;
    try {
      for (const { session } of items) {
        const lines = readFileSync(session.path, "utf8").split("\n").filter((l) => l.length > 0);
        const header = lines.findIndex((l) => l.includes('"type":"session"'));
        const file = join(replayDir, `${session.seed}.jsonl`);
        writeFileSync(file, lines.slice(0, header + 1).map((l) => `${l}\n`).join(""));
        let started = 0;
        const counting = { ...rule, incremental: (tail: readonly SessionEntry[]) => (started++, rule.incremental!(tail)) };
        let live = await openSession(file);
        const facts = new LiveSessionFacts(live, counting);
        // Entries one to three at a time, as a follower sees omp's writes.
        for (let i = header + 1, n = 0; i < lines.length; i += 1 + (n++ % 3)) {
          const batch = lines.slice(i, i + 1 + (n % 3));
          appendFileSync(file, batch.map((l) => `${l}\n`).join(""));
          live = (await refreshSession(live)).session;
          const kept = facts.update(live).usage;
          const fresh = rule.usageOfPath(openSessionSync(file).pathTo());
          if (JSON.stringify(kept) !== JSON.stringify(fresh)) expect({ seed: session.seed, entries: i + batch.length - header - 1, kept }).toEqual({ seed: session.seed, entries: i + batch.length - header - 1, kept: fresh });
          appends++;
        }
        recounts += started;
      }
    } finally {
      rmSync(replayDir, { recursive: true, force: true });
    }
    console.log(`omp live usage: ${items.length} sessions replayed in ${appends} appends, ${recounts} counts started (the rest kept over the appends)`);
    expect(appends).toBeGreaterThan(2000);
    expect(recounts).toBeLessThan(appends / 2);
  });

  it("through the CLI contract, without --agent: every session is recognised as omp's, context and prepare --json equal omp's", async () => {
    const mismatches: Mismatch[] = [];
    let runs = 0;
    const env = { PI_CODING_AGENT_DIR: undefined, PATH: "" };
    for (const { session, answers } of items) {
      for (const leaf of answers.leaves) {
        runs++;
        const context = (await cli(["context", session.path, "--leaf", leaf.leafId, "--json", "--agent-dir", oracle().agentDir], { env })).json();
        check(mismatches, session.seed, leaf.leafId, "cli context", { agent: context.agent, thinkingLevel: context.thinkingLevel, messages: digestImages(context.messages) }, { agent: "omp", thinkingLevel: leaf.context.thinkingLevel, messages: leaf.llm });
        const want = leaf.preparations[1];
        const prepare = (await cli(["prepare", session.path, "--leaf", leaf.leafId, "--json", "--keep-recent-tokens", "2000", "--agent-dir", oracle().agentDir], { env })).json();
        check(
          mismatches,
          session.seed,
          leaf.leafId,
          "cli prepare",
          prepare.compactable
            ? { firstKeptEntryId: prepare.firstKeptEntryId, isSplitTurn: prepare.isSplitTurn, tokensBefore: prepare.tokensBefore, messagesToSummarize: prepare.messagesToSummarize, turnPrefixMessages: prepare.turnPrefixMessages, previousSummary: prepare.previousSummary, readFiles: prepare.readFiles, modifiedFiles: prepare.modifiedFiles, serializedHistory: prepare.serializedHistory, serializedTurnPrefix: prepare.serializedTurnPrefix }
            : null,
          want === null
            ? null
            : { firstKeptEntryId: want.firstKeptEntryId, isSplitTurn: want.isSplitTurn, tokensBefore: want.tokensBefore, messagesToSummarize: want.messagesToSummarize.length, turnPrefixMessages: want.turnPrefixMessages.length, previousSummary: want.previousSummary, readFiles: want.files.readFiles, modifiedFiles: want.files.modifiedFiles, serializedHistory: want.serializedHistory, serializedTurnPrefix: want.serializedTurnPrefix },
        );
      }
    }
    console.log(`omp differential through the CLI: ${runs} leaves × (context, prepare); ${mismatches.length} mismatches`);
    const shown = mismatches.slice(0, 6).map((m) => `seed ${m.seed} ${m.leaf ?? ""} ${m.what}:\n ours ${JSON.stringify(m.ours)?.slice(0, 500)}\n omp  ${JSON.stringify(m.omps)?.slice(0, 500)}`);
    expect({ mismatches: mismatches.length, shown }).toEqual({ mismatches: 0, shown: [] });
  }, 600_000);
}, { blobsFrom: [] });
