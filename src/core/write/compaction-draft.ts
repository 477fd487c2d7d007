// The compaction entry a model (or the digest) writes for a prepared span:
// the summary call(s) with the prompt file and the authoritative files list,
// pi's file lists and the grounded files-touched block of the whole branch,
// bounded to the summary budget (folded by folder before anything is cut),
// and details saying which model and thinking level ran. Shared by
// runCompaction (CLI, VS Code) and the pi extension's session_before_compact.

import { computeFileLists, mergeSplitTurnSummary, NO_PRIOR_HISTORY, summaryMaxTokens } from "../compaction/index.js";
import type { CompactionPreparation, SummaryRequest } from "../compaction/index.js";
import type { FilesTouched } from "../files-touched/index.js";
import { semanticsFor } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { OMP_18, type AgentName } from "../session/format/agent-version.js";
import type { CompactionDraft } from "../session/format/serialize-entry.js";
import type { SessionEntry, Usage as EntryUsage } from "../session/format/types.js";
import { completeSummaryWithUsage, type SummaryAnswer } from "../summarize/call-model.js";
import { buildDigest } from "../summarize/digest.js";
import { boundSummary, summaryBudget } from "./bounded-summary.js";
import { combineUsage } from "./combine-usage.js";
import { compactionCalls, compactionSpans } from "./compaction-calls.js";
import { authoritativeFilesBlock, DEFAULT_FILES_TOUCHED, filesTouchedDetails, filesTouchedOf, type FilesTouchedOptions } from "./files-for-summary.js";
import { readPromptFile, type PromptFileRef } from "./prompt-file.js";
import { allOrAbort, type ModelCallSettings, type ProgressListener } from "./run-common.js";
import { upsertOmpFileOperations } from "./omp-files-block.js";
import { chooseSummarizer, type Summarizer, type SummarizerChoice } from "./summarizer.js";

export interface CompactionDraftOptions extends ModelCallSettings {
  piVersion: PiVersion;
  /** Whose session: omp's summary ends with omp's `<files>` block and is marked `fromExtension` (default pi). */
  agent?: AgentName;
  agentDir: string;
  /** The branch root→leaf. */
  pathEntries: readonly SessionEntry[];
  prep: CompactionPreparation;
  /** The session's cwd (files-touched paths are shown relative to it). */
  cwd: string;
  trustProject: boolean;
  summarizer?: SummarizerChoice;
  /** false: no model available is an error (the pi extension lets pi's own compaction run instead). Default true. */
  allowDigest?: boolean;
  instructions?: string;
  /** undefined: pi-sessions.json's compaction prompt file; null: pi's instructions. */
  promptFile?: PromptFileRef | null;
  filesTouched?: Partial<FilesTouchedOptions>;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  warnings: string[];
  /** Extra fields kept in details.piSessions (e.g. which face wrote it). */
  detailsExtra?: Record<string, unknown>;
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

interface SummaryText {
  text: string;
  thinkingLevel: string | null;
  /** pi 1.5: the calls' usage, combined. */
  usage?: EntryUsage;
}

async function modelSummary(
  summarizer: Extract<Summarizer, { kind: "model" }>,
  calls: { history?: SummaryRequest; turnPrefix?: SummaryRequest },
  prep: CompactionPreparation,
  options: ModelCallSettings & { piVersion?: PiVersion; signal?: AbortSignal },
): Promise<SummaryText> {
  const { resolved } = summarizer;
  const piVersion = options.piVersion ?? "0.73";
  const run = (request: SummaryRequest) => (signal: AbortSignal | undefined) =>
    completeSummaryWithUsage({
      piVersion,
      model: resolved.model,
      apiKey: resolved.apiKey,
      headers: resolved.headers,
      systemPrompt: request.systemPrompt,
      userText: request.userText,
      maxTokens: summaryMaxTokens(prep.settings.reserveTokens, request.maxTokensFactor, resolved.model.maxTokens),
      thinkingLevel: resolved.thinkingLevel,
      signal,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
  if (piVersion === "1.5") {
    // pi 1.5: history first, then the turn prefix; a split turn without history keeps the previous summary.
    const history = calls.history ? await run(calls.history)(options.signal) : undefined;
    const prefix = calls.turnPrefix ? await run(calls.turnPrefix)(options.signal) : undefined;
    const historyText = history?.text ?? prep.previousSummary ?? NO_PRIOR_HISTORY;
    const answers = [history, prefix].filter((a): a is SummaryAnswer => a !== undefined);
    const usage = answers.length === 2 ? combineUsage(answers[0]!.usage, answers[1]!.usage) : answers[0]?.usage;
    return {
      text: prefix ? mergeSplitTurnSummary(historyText, prefix.text) : historyText,
      thinkingLevel: resolved.thinkingLevel ?? null,
      ...(usage ? { usage: usage as unknown as EntryUsage } : {}),
    };
  }
  const jobs: ((signal: AbortSignal) => Promise<SummaryAnswer>)[] = [];
  if (calls.history) jobs.push(run(calls.history));
  if (calls.turnPrefix) jobs.push(run(calls.turnPrefix));
  const answers = await allOrAbort(options.signal, jobs);
  const history = calls.history ? answers[0]!.text : NO_PRIOR_HISTORY;
  const text = calls.turnPrefix ? mergeSplitTurnSummary(history, answers[answers.length - 1]!.text) : history;
  return { text, thinkingLevel: resolved.thinkingLevel ?? null };
}


export async function buildCompactionDraft(options: CompactionDraftOptions): Promise<CompactionDraftResult> {
  const { piVersion, pathEntries, prep, warnings } = options;
  const omp = options.agent === "omp";
  const semantics = omp ? semanticsFor(OMP_18) : semanticsFor(piVersion);
  const summarizer = await chooseSummarizer({ agentDir: options.agentDir, pathEntries, choice: options.summarizer ?? {}, warnings, piVersion });
  if (summarizer.kind === "digest" && !summarizer.requested && options.allowDigest === false) throw new NoSummaryModelError(summarizer.reason ?? "no model available");
  const digest = summarizer.kind === "digest";
  const configFiles = summarizer.kind === "model" ? summarizer.resolved.config.filesTouched : undefined;
  const filesOptions = { ...DEFAULT_FILES_TOUCHED, ...configFiles, ...options.filesTouched };
  const spans = compactionSpans(pathEntries, prep, piVersion);
  const historyFiles = await filesTouchedOf(spans.history, options.cwd);
  const prefixFiles = await filesTouchedOf(spans.turnPrefix, options.cwd);
  let summary: SummaryText;
  if (summarizer.kind === "digest") {
    options.onProgress?.({ phase: "summarize", message: "Building the digest (no model)" });
    const spanFiles = await filesTouchedOf([...spans.history, ...spans.turnPrefix], options.cwd);
    summary = {
      text: buildDigest({ messages: [...prep.messagesToSummarize, ...prep.turnPrefixMessages], previousSummary: prep.previousSummary, files: spanFiles.files }),
      thinkingLevel: null,
    };
  } else {
    const promptRef = options.promptFile === undefined ? configPromptRef(summarizer.resolved.config.compactionPromptFile) : (options.promptFile ?? undefined);
    const prompt = await readPromptFile(promptRef, options.trustProject, warnings);
    const calls = compactionCalls(prep, {
      customInstructions: options.instructions,
      promptText: prompt?.text,
      historyFilesBlock: authoritativeFilesBlock(historyFiles),
      turnPrefixFilesBlock: authoritativeFilesBlock(prefixFiles),
      semantics,
    });
    const both = piVersion === "1.5" ? " (history, then the split-turn prefix)" : " (history and split-turn prefix in parallel)";
    options.onProgress?.({ phase: "summarize", message: `Summarising with ${summarizer.label}${calls.turnPrefix ? both : ""}` });
    summary = await modelSummary(summarizer, calls, prep, options);
  }
  const lists = computeFileLists(prep.fileOps);
  let branchFiles: FilesTouched | undefined;
  if (filesOptions.compaction) branchFiles = await filesTouchedOf(pathEntries, options.cwd);
  // omp's summaries end with its own <files> block (at most 20 files; omp strips and re-adds it), not pi's lists.
  const bounded = boundSummary({
    text: summary.text,
    readFiles: omp ? [] : lists.readFiles,
    modifiedFiles: omp ? [] : lists.modifiedFiles,
    manifest: branchFiles,
    budgetTokens: summaryBudget(prep.settings.reserveTokens),
  });
  if (bounded.textCut) warnings.push("The summary text was cut to keep the summary within its budget (pi's reserveTokens).");
  const draft: CompactionDraft = {
    type: "compaction",
    summary: omp ? upsertOmpFileOperations(bounded.summary, lists.readFiles, lists.modifiedFiles, new Set(prep.fileOps.read)) : bounded.summary,
    firstKeptEntryId: prep.firstKeptEntryId,
    tokensBefore: prep.tokensBefore,
    details: {
      readFiles: lists.readFiles,
      modifiedFiles: lists.modifiedFiles,
      model: summarizer.label,
      thinkingLevel: summary.thinkingLevel,
      piSessions: {
        version: 1,
        digest,
        filesTouched: branchFiles ? filesTouchedDetails(branchFiles) : null,
        ...(bounded.folded ? { folded: true } : {}),
        ...(options.instructions ? { instructions: options.instructions } : {}),
        ...options.detailsExtra,
      },
    },
    ...(omp ? { fromExtension: true } : { ...(summary.usage ? { usage: summary.usage } : {}), fromHook: false }),
  };
  return { draft, model: summarizer.label, digest, thinkingLevel: summary.thinkingLevel, folded: bounded.folded };
}

function configPromptRef(path: string | undefined): PromptFileRef | undefined {
  return path ? { path, scope: "user" } : undefined;
}
