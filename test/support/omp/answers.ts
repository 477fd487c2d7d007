// What omp 18.3.4 answers about one session file, computed by omp's own code
// (runs in the Bun worker): the loader, SessionManager.open, buildSessionContext
// and convertToLlm at any leaf, token counts, the auto-compaction threshold,
// prepareCompaction and branch preparation. The file is always opened from a
// temporary copy (an empty or slot-only file is rewritten by omp's open).

import { createHash } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { digestImages } from "./image-digest.js";
import type { Entry, FileOps, Json, Message, Omp, OmpSessionManager, OmpTokenizer, Preparation } from "./omp-modules.js";

/** Compaction settings: overrides over omp's DEFAULT_COMPACTION_SETTINGS, or omp's settings read from config.yml files. */
export type OmpSettingsSpec = Record<string, unknown> | { config: { cwd: string; agentDir: string } };

export interface OmpAnswersArgs {
  file: string;
  /** Leaves to answer at; default: the file's leaf (the last entry). */
  leaves?: string[];
  /** Default: `[{}]` (omp's defaults). */
  settings?: OmpSettingsSpec[];
  /** Context windows for the threshold answers; default `[128000, 200000]`. */
  contextWindows?: number[];
  /** `"provider/id"`: the active model (tokenizer, prepareCompaction); default none (the byte estimate). */
  model?: string | null;
  /** Models asked "would omp count with a native tokenizer?". */
  tokenizerModels?: string[];
  branchPairs?: { oldLeafId: string | null; targetId: string }[];
  /** Budgets for prepareBranchEntries (0 = unlimited); default `[0, 128000 − 16384]`. */
  branchBudgets?: number[];
}

const lists = (ops: FileOps) => ({ read: [...ops.read].sort(), written: [...ops.written].sort(), edited: [...ops.edited].sort() });
const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest("hex");

/** Opens a temporary copy of `file` with omp's SessionManager.open; the copy is removed afterwards. */
export async function withOpenCopy<T>(omp: Omp, file: string, use: (sm: OmpSessionManager | Error, copy: string) => Promise<T> | T): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), "omp-oracle-"));
  try {
    const copy = join(dir, basename(file));
    copyFileSync(file, copy);
    let sm: OmpSessionManager | Error;
    try {
      sm = await omp.SessionManager.open(copy);
    } catch (error) {
      sm = error instanceof Error ? error : new Error(String(error));
    }
    return await use(sm, copy);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function splitModel(key: string): [string, string] {
  const slash = key.indexOf("/");
  return [key.slice(0, slash), key.slice(slash + 1)];
}

/** The catalog model omp would count tokens with (undefined: not in omp's catalog, e.g. a models.yml model). */
export function catalogModel(omp: Omp, key: string | null | undefined) {
  return key ? (omp.getBundledModel(...splitModel(key)) ?? undefined) : undefined;
}

export async function resolveSettings(omp: Omp, spec: OmpSettingsSpec): Promise<Record<string, unknown>> {
  if ("config" in spec && spec.config && typeof spec.config === "object") {
    const { cwd, agentDir } = spec.config as { cwd: string; agentDir: string };
    return omp.compactionSettingsFrom(cwd, agentDir);
  }
  return { ...omp.DEFAULT_COMPACTION_SETTINGS, ...spec };
}

function preparationAnswer(omp: Omp, prep: Preparation | undefined): Json {
  if (!prep) return null;
  const files = omp.computeFileLists(prep.fileOps);
  const readSet = new Set(prep.fileOps.read);
  return digestImages({
    firstKeptEntryId: prep.firstKeptEntryId,
    isSplitTurn: prep.isSplitTurn,
    tokensBefore: prep.tokensBefore,
    previousSummary: prep.previousSummary ?? null,
    messagesToSummarize: prep.messagesToSummarize,
    turnPrefixMessages: prep.turnPrefixMessages,
    recentMessages: prep.recentMessages.length,
    recentEntryIds: prep.recentEntryIds,
    fileOps: lists(prep.fileOps),
    files,
    filesBlock: omp.formatFileOperations(files.readFiles, files.modifiedFiles, readSet),
    serializedHistory: omp.serializeConversation(omp.convertToLlm(prep.messagesToSummarize)),
    serializedTurnPrefix: omp.serializeConversation(omp.convertToLlm(prep.turnPrefixMessages)),
  });
}

function leafAnswers(omp: Omp, sm: OmpSessionManager, leafId: string, settings: Record<string, unknown>[], args: OmpAnswersArgs, tok: OmpTokenizer, model: unknown): Json {
  sm.branch(leafId);
  const path = sm.getBranch(leafId);
  const ctx = sm.buildSessionContext();
  const transcript = sm.buildSessionContext({ transcript: true });
  const llm = omp.convertToLlm(ctx.messages);
  const usage = omp.getLastAssistantUsage(path);
  const usageContextTokens = usage ? omp.calculateContextTokens(usage) : null;
  const { messages, ...contextRest } = ctx;
  return {
    leafId,
    path: path.map((e) => e.id),
    context: digestImages({ ...contextRest, messages }),
    transcriptRoles: transcript.messages.map((m) => m.role),
    llm: digestImages(llm),
    tokens: {
      perMessage: messages.map((m) => tok.countMessage(m)),
      total: tok.countMessages(messages),
      // What the compaction trigger counts (signatures and encrypted reasoning dropped).
      totalExcludingEncryptedReasoning: tok.countMessages(messages, { excludeEncryptedReasoning: true }),
    },
    usage: usage
      ? { lastAssistantUsage: usage, contextTokens: usageContextTokens, promptTokens: omp.calculatePromptTokens(usage) }
      : null,
    thresholds: settings.flatMap((s, settingsIndex) =>
      (args.contextWindows ?? [128000, 200000]).map((contextWindow) => ({
        settingsIndex,
        contextWindow,
        thresholdTokens: omp.resolveThresholdTokens(contextWindow, s),
        effectiveReserveTokens: omp.effectiveReserveTokens(contextWindow, s),
        shouldCompactAtUsage: usageContextTokens === null ? null : omp.shouldCompact(usageContextTokens, contextWindow, s),
      })),
    ),
    preparations: settings.map((s) => preparationAnswer(omp, omp.prepareCompaction(path, s, model, tok))),
  };
}

function branchAnswers(omp: Omp, sm: OmpSessionManager, pair: { oldLeafId: string | null; targetId: string }, budgets: number[], tok: OmpTokenizer): Json {
  const collected = omp.collectEntriesForBranchSummary(sm, pair.oldLeafId, pair.targetId);
  return {
    ...pair,
    commonAncestorId: collected.commonAncestorId,
    entryIds: collected.entries.map((e) => e.id),
    prepared: budgets.map((budget) => {
      const prep = omp.prepareBranchEntries(collected.entries, tok, budget);
      const files = omp.computeFileLists(prep.fileOps);
      return digestImages({
        budget,
        messages: prep.messages,
        totalTokens: prep.totalTokens,
        fileOps: lists(prep.fileOps),
        files,
        serialized: omp.serializeConversation(omp.convertToLlm(prep.messages)),
      });
    }),
  };
}

/** Everything the oracle answers about one file. */
export async function answers(omp: Omp, args: OmpAnswersArgs): Promise<Json> {
  const bytes = readFileSync(args.file);
  const settings = await Promise.all((args.settings ?? [{}]).map((spec) => resolveSettings(omp, spec)));
  const model = catalogModel(omp, args.model);
  const tok = new omp.Tokenizer(model ?? null);
  const tokenizers = (args.tokenizerModels ?? []).map((key) => {
    const m = catalogModel(omp, key);
    return { model: key, inCatalog: m !== undefined, family: m?.tokenizer ?? null, native: new omp.Tokenizer(m ?? null).encoding !== null };
  });
  return withOpenCopy(omp, args.file, async (sm, copy) => {
    const loaded = await omp.loadSessionFile(copy);
    const load = {
      titleSlot: loaded.titleSlot ?? null,
      invalidHeader: loaded.invalidHeader,
      malformedRecords: loaded.malformedRecords,
      entries: loaded.entries.length,
      header: loaded.entries[0] ?? null,
    };
    const base = { file: args.file, sha256: sha256(bytes), settings, tokenizers, load };
    if (sm instanceof Error) return { ...base, open: { error: sm.message } };
    const fileLeaf = sm.getLeafId();
    const header = sm.getHeader();
    const entries = sm.getEntries();
    const open = {
      sessionId: sm.getSessionId(),
      header,
      title: sm.getSessionName() ?? null,
      leafId: fileLeaf,
      entryIds: entries.map((e) => e.id),
      labels: Object.fromEntries(entries.flatMap((e) => (sm.getLabel(e.id) ? [[e.id, sm.getLabel(e.id)]] : []))),
      fileUnchangedAfterOpen: sha256(readFileSync(copy)) === base.sha256,
    };
    const leaves = (args.leaves ?? (fileLeaf ? [fileLeaf] : [])).map((leafId) => leafAnswers(omp, sm, leafId, settings, args, tok, model));
    if (fileLeaf) sm.branch(fileLeaf);
    const budgets = args.branchBudgets ?? [0, 128000 - 16384];
    const branches = (args.branchPairs ?? []).map((pair) => branchAnswers(omp, sm, pair, budgets, tok));
    return { ...base, open, leaves, branches };
  });
}

/** The file as omp loads it back: header, title, every entry (images digested), leaf, labels, context at the leaf. */
export async function loadBack(omp: Omp, args: { file: string }): Promise<Json> {
  return withOpenCopy(omp, args.file, async (sm, copy) => {
    const loaded = await omp.loadSessionFile(copy);
    if (sm instanceof Error) return { error: sm.message, invalidHeader: loaded.invalidHeader };
    const entries = sm.getEntries();
    const ctx = sm.buildSessionContext();
    const tree = (nodes: { entry: Entry; children: unknown[] }[]): Json =>
      nodes.map((n) => ({ id: n.entry.id, children: tree(n.children as { entry: Entry; children: unknown[] }[]) }));
    return digestImages({
      titleSlot: loaded.titleSlot ?? null,
      malformedRecords: loaded.malformedRecords,
      header: sm.getHeader(),
      title: sm.getSessionName() ?? null,
      titleSource: sm.titleSource ?? null,
      entries,
      leafId: sm.getLeafId(),
      branch: sm.getBranch().map((e) => e.id),
      tree: tree(sm.getTree()),
      labels: Object.fromEntries(entries.flatMap((e) => (sm.getLabel(e.id) ? [[e.id, sm.getLabel(e.id)]] : []))),
      context: ctx,
      llm: omp.convertToLlm(ctx.messages as Message[]),
    });
  });
}
