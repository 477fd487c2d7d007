// The compaction entry a model (or the digest) writes for a prepared span:
// the summary call(s) with the prompt file and the authoritative files list,
// pi's file lists and the grounded files-touched block of the whole branch,
// bounded to the summary budget (folded by folder before anything is cut),
// and details saying which model and thinking level ran. Shared by
// runCompaction (CLI, VS Code) and the pi extension's session_before_compact.

import { computeFileLists } from "../compaction/index.js";
import type { CompactionPreparation } from "../compaction/index.js";
import type { FilesTouched } from "../files-touched/index.js";
import { writerSemantics } from "../agent/index.js";
import { compactionSpans } from "../agent/compaction-calls.js";
import type { CompactionText, SummaryCaller, SummaryModelFacts, SummaryWriter } from "../agent/summary-writer.js";
import type { CompactionDraft } from "../session/format/serialize-entry.js";
import type { Usage as EntryUsage } from "../session/format/types.js";
import { completeSummaryWithUsage } from "../summarize/call-model.js";
import { buildDigest } from "../summarize/digest.js";
import type { ThinkingLevel } from "../summarize/thinking-level.js";
import { boundSummary, summaryBudget } from "./bounded-summary.js";
import { authoritativeFilesBlock, DEFAULT_FILES_TOUCHED, filesTouchedDetails, filesTouchedOf } from "./files-for-summary.js";
import { readPromptFile, type PromptFileRef } from "./prompt-file.js";
import type { ModelCallSettings, SummaryDraftOptions } from "./run-common.js";
import { chooseSummarizer, type Summarizer } from "./summarizer.js";
import { agentConfigs } from "./run-common.js";

export interface CompactionDraftOptions extends SummaryDraftOptions {
  prep: CompactionPreparation;
  instructions?: string;
}

export interface CompactionDraftResult {
  draft: CompactionDraft;
  /** "provider/id" or "digest". */
  model: string;
  digest: boolean;
  thinkingLevel: string | null;
  folded: boolean;
}

/** No model could be used and the caller does not want the digest. */
export class NoSummaryModelError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = "NoSummaryModelError";
  }
}

/** The model call a writer asks for, through pi-ai under the writer's call rules. */
export function summaryCaller(
  summarizer: Extract<Summarizer, { kind: "model" }>,
  writer: Pick<SummaryWriter, "callRules">,
  options: ModelCallSettings,
  thinkingLevel: ThinkingLevel | undefined = summarizer.resolved.thinkingLevel,
): SummaryCaller {
  const { resolved } = summarizer;
  return async (call, signal) => {
    const answer = await completeSummaryWithUsage({
      piVersion: writer.callRules,
      model: resolved.model,
      apiKey: resolved.apiKey,
      headers: resolved.headers,
      systemPrompt: call.systemPrompt,
      userText: call.userText,
      ...(call.maxTokens !== undefined ? { maxTokens: call.maxTokens } : {}),
      ...(call.thinking ? { thinkingLevel: (call.reasoning as ThinkingLevel | undefined) ?? thinkingLevel } : {}),
      signal,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
    return { text: answer.text, usage: answer.usage as unknown as EntryUsage };
  };
}

export function summaryModelFacts(summarizer: Extract<Summarizer, { kind: "model" }>): SummaryModelFacts {
  const { model } = summarizer.resolved;
  return { id: model.id, maxTokens: model.maxTokens, contextWindow: model.contextWindow, reasoning: model.reasoning };
}

export async function buildCompactionDraft(options: CompactionDraftOptions): Promise<CompactionDraftResult> {
  const { piVersion, pathEntries, prep, warnings } = options;
  const semantics = writerSemantics(options.agent ?? "pi", piVersion);
  const writer = semantics.summaryWriter;
  const summarizer = await chooseSummarizer({ ...semantics.modelDirs(agentConfigs(options)), pathEntries, choice: options.summarizer ?? {}, warnings, piVersion });
  if (summarizer.kind === "digest" && !summarizer.requested && options.allowDigest === false) throw new NoSummaryModelError(summarizer.reason ?? "no model available");
  const digest = summarizer.kind === "digest";
  const configFiles = summarizer.kind === "model" ? summarizer.resolved.config.filesTouched : undefined;
  const filesOptions = { ...DEFAULT_FILES_TOUCHED, ...configFiles, ...options.filesTouched };
  const spans = compactionSpans(pathEntries, prep, piVersion);
  let text: CompactionText | undefined;
  let summaryText: string;
  let thinkingLevel: string | null = null;
  if (summarizer.kind === "digest") {
    options.onProgress?.({ phase: "summarize", message: "Building the digest (no model)" });
    const spanFiles = await filesTouchedOf([...spans.history, ...spans.turnPrefix], options.cwd);
    summaryText = buildDigest({ messages: [...prep.messagesToSummarize, ...prep.turnPrefixMessages], previousSummary: prep.previousSummary, files: spanFiles.files });
  } else {
    const promptRef = options.promptFile === undefined ? configPromptRef(summarizer.resolved.config.compactionPromptFile) : (options.promptFile ?? undefined);
    const prompt = await readPromptFile(promptRef, options.trustProject, warnings);
    const filesBlocks = writer.filesTouched
      ? {
          historyFilesBlock: authoritativeFilesBlock(await filesTouchedOf(spans.history, options.cwd)),
          turnPrefixFilesBlock: authoritativeFilesBlock(await filesTouchedOf(spans.turnPrefix, options.cwd)),
        }
      : {};
    const split = prep.isSplitTurn && prep.turnPrefixMessages.length > 0 ? writer.splitTurnPlan : "";
    options.onProgress?.({ phase: "summarize", message: `Summarising with ${summarizer.label}${split}` });
    text = await writer.compactionText(
      { pathEntries, prep, model: summaryModelFacts(summarizer), customInstructions: options.instructions, promptText: prompt?.text, ...filesBlocks, signal: options.signal },
      summaryCaller(summarizer, writer, options),
    );
    summaryText = text.text;
    thinkingLevel = summarizer.resolved.thinkingLevel ?? null;
  }
  const lists = computeFileLists(prep.fileOps);
  let branchFiles: FilesTouched | undefined;
  if (filesOptions.compaction && writer.filesTouched) branchFiles = await filesTouchedOf(pathEntries, options.cwd);
  // pi's lists go in the summary here; an agent with its own file block (omp) adds it in compactionEntry.
  const piLists = writer.fileLists === "pi";
  const bounded = boundSummary({
    text: summaryText,
    readFiles: piLists ? lists.readFiles : [],
    modifiedFiles: piLists ? lists.modifiedFiles : [],
    manifest: branchFiles,
    budgetTokens: summaryBudget(prep.settings.reserveTokens),
  });
  if (bounded.textCut) warnings.push("The summary text was cut to keep the summary within its budget (pi's reserveTokens).");
  const fields = writer.compactionEntry({
    summary: bounded.summary,
    prep,
    text,
    details: {
      model: summarizer.label,
      thinkingLevel,
      piSessions: {
        version: 1,
        digest,
        filesTouched: branchFiles ? filesTouchedDetails(branchFiles) : null,
        ...(bounded.folded ? { folded: true } : {}),
        ...(options.instructions ? { instructions: options.instructions } : {}),
        ...options.detailsExtra,
      },
    },
  });
  const draft: CompactionDraft = { type: "compaction", firstKeptEntryId: prep.firstKeptEntryId, tokensBefore: prep.tokensBefore, ...fields };
  return { draft, model: summarizer.label, digest, thinkingLevel, folded: bounded.folded };
}

function configPromptRef(path: string | undefined): PromptFileRef | undefined {
  return path ? { path, scope: "user" } : undefined;
}
