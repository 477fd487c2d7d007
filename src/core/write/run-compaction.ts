// runCompaction: the one entry point for compacting a session (CLI and
// extension). pi 0.73's manual compaction (agent-session.js compact) on the
// branch ending at the leaf: prepare, before_compact hooks, the model call(s)
// or the digest, file lists and the files-touched manifest, an optional
// confirm step, one safe append of the `compaction` entry as a child of the
// leaf, after_compact hooks.

import type { Diagnostic } from "../diagnostics.js";
import { buildContextFromPath } from "../context/index.js";
import { computeFileLists, formatFileOperations, mergeSplitTurnSummary, NO_PRIOR_HISTORY, planCompaction, summaryMaxTokens } from "../compaction/index.js";
import type { CompactionPreparation, SummaryRequest } from "../compaction/index.js";
import { appendManifest, type FilesTouched } from "../files-touched/index.js";
import { checkWritable, commitAppend, planAppend, type PlannedAppend } from "../session/append.js";
import type { CompactionDraft } from "../session/serialize-entry.js";
import type { CompactionEntry, SessionEntry } from "../session/types.js";
import { resolveCompactionSettings, type CompactionSettings } from "../settings/index.js";
import { completeSummary } from "../summarize/call-model.js";
import { buildDigest } from "../summarize/digest.js";
import { estimateTokens } from "../tokens/index.js";
import { compactionCalls, compactionSpans } from "./compaction-calls.js";
import { authoritativeFilesBlock, DEFAULT_FILES_TOUCHED, filesTouchedDetails, filesTouchedOf } from "./files-for-summary.js";
import { readPromptFile, type PromptFileRef } from "./prompt-file.js";
import {
  allOrAbort,
  diagnosticMessages,
  requireEntry,
  RunInputError,
  throwIfAborted,
  type SummaryRunOptions,
  type ProgressListener,
  type RunOutcome,
} from "./run-common.js";
import { chooseSummarizer, type Summarizer } from "./summarizer.js";

export interface RunCompactionOptions extends SummaryRunOptions<CompactionProposal> {
  /** Default: resolved from the settings files. */
  settings?: CompactionSettings;
  /** Focus text, appended to pi's instructions as "Additional focus: …". */
  instructions?: string;
}

export interface CompactionProposal {
  entry: CompactionEntry;
  tokensBefore: number;
  tokensAfter: number;
  model: string;
  warnings: readonly string[];
}

export interface CompactionRunResult {
  outcome: RunOutcome;
  written: boolean;
  /** The entry as written (or as it would be written); null when cancelled or discarded. */
  entry: CompactionEntry | null;
  leafId: string;
  tokensBefore: number;
  /** Estimate of the context pi rebuilds after the compaction; null without an entry. */
  tokensAfter: number | null;
  /** "provider/id", "digest", or "hook" (a before_compact hook wrote it). */
  model: string;
  digest: boolean;
  warnings: string[];
  diagnostics: Diagnostic[];
}

/**
 * Tokens of the context pi builds after the new entry, estimated from its
 * messages' text. Usage numbers are not used: the kept assistant messages
 * carry the pre-compaction usage, which pi itself distrusts after a compaction
 * (agent-session.js getContextUsage).
 */
export function contextTokensAfter(pathEntries: readonly SessionEntry[], entry: SessionEntry): number {
  let tokens = 0;
  for (const message of buildContextFromPath([...pathEntries, entry]).messages) tokens += estimateTokens(message);
  return tokens;
}

interface SummaryText {
  text: string;
  thinkingLevel: string | null;
}

async function modelSummary(
  summarizer: Extract<Summarizer, { kind: "model" }>,
  calls: { history?: SummaryRequest; turnPrefix?: SummaryRequest },
  prep: CompactionPreparation,
  options: RunCompactionOptions,
): Promise<SummaryText> {
  const { resolved } = summarizer;
  const run = (request: SummaryRequest) => (signal: AbortSignal) =>
    completeSummary({
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
  const jobs: ((signal: AbortSignal) => Promise<string>)[] = [];
  if (calls.history) jobs.push(run(calls.history));
  if (calls.turnPrefix) jobs.push(run(calls.turnPrefix));
  const answers = await allOrAbort(options.signal, jobs);
  const history = calls.history ? answers[0]! : NO_PRIOR_HISTORY;
  const text = calls.turnPrefix ? mergeSplitTurnSummary(history, answers[answers.length - 1]!) : history;
  return { text, thinkingLevel: resolved.thinkingLevel ?? null };
}

function progress(options: RunCompactionOptions, phase: Parameters<ProgressListener>[0]["phase"], message: string): void {
  options.onProgress?.({ phase, message });
}

export async function runCompaction(options: RunCompactionOptions): Promise<CompactionRunResult> {
  const { session } = options;
  const warnings: string[] = [];
  const diagnostics: Diagnostic[] = [];
  checkWritable(session);
  const leafId = options.leafId ?? session.index.leafId;
  if (leafId === null) throw new RunInputError("empty-branch", `${session.path}: the session has no entries to compact`);
  requireEntry(session, leafId, "leaf");
  const pathEntries = session.pathTo(leafId);
  const trustProject = options.trustProject !== false;
  const cwd = options.cwd ?? session.header?.cwd ?? process.cwd();

  progress(options, "prepare", "Preparing the compaction");
  let settings = options.settings;
  if (!settings) {
    const resolved = resolveCompactionSettings({ agentDir: options.agentDir, cwd, trustProject });
    diagnostics.push(...resolved.diagnostics);
    settings = resolved.settings;
  }
  const plan = planCompaction(pathEntries, settings);
  if (!plan.compactable) throw new RunInputError(plan.code, `nothing to compact: ${plan.reason}`);
  const prep = plan.preparation;

  let draft: CompactionDraft | undefined;
  let modelLabel = "hook";
  let digest = false;
  if (options.hooks?.has("before_compact")) {
    progress(options, "hooks", "Running before_compact hooks");
    const report = await options.hooks.runBeforeCompact({
      preparation: prep,
      branchEntries: pathEntries,
      customInstructions: options.instructions,
      signal: options.signal ?? new AbortController().signal,
    });
    diagnostics.push(...report.diagnostics);
    warnings.push(...diagnosticMessages(report.diagnostics));
    if (report.cancelled) {
      progress(options, "done", "Cancelled by a before_compact hook");
      return { outcome: "cancelled", written: false, entry: null, leafId, tokensBefore: prep.tokensBefore, tokensAfter: null, model: "hook", digest: false, warnings, diagnostics };
    }
    const supplied = report.result?.compaction;
    if (supplied) {
      requireEntry(session, supplied.firstKeptEntryId, "firstKeptEntryId from a before_compact hook");
      draft = { type: "compaction", summary: supplied.summary, firstKeptEntryId: supplied.firstKeptEntryId, tokensBefore: supplied.tokensBefore, details: supplied.details, fromHook: true };
    }
  }

  if (!draft) {
    const summarizer = await chooseSummarizer({ agentDir: options.agentDir, pathEntries, choice: options.summarizer ?? {}, warnings });
    modelLabel = summarizer.label;
    digest = summarizer.kind === "digest";
    const filesOptions = { ...DEFAULT_FILES_TOUCHED, ...options.filesTouched };
    const filesCwd = session.header?.cwd || cwd;
    const spans = compactionSpans(pathEntries, prep);
    const historyFiles = await filesTouchedOf(spans.history, filesCwd);
    const prefixFiles = await filesTouchedOf(spans.turnPrefix, filesCwd);
    let summary: SummaryText;
    if (summarizer.kind === "digest") {
      progress(options, "summarize", "Building the digest (no model)");
      const spanFiles = await filesTouchedOf([...spans.history, ...spans.turnPrefix], filesCwd);
      summary = {
        text: buildDigest({ messages: [...prep.messagesToSummarize, ...prep.turnPrefixMessages], previousSummary: prep.previousSummary, files: spanFiles.files }),
        thinkingLevel: null,
      };
    } else {
      const promptRef = options.promptFile === undefined ? configPromptRef(summarizer.resolved.config.compactionPromptFile) : (options.promptFile ?? undefined);
      const prompt = await readPromptFile(promptRef, trustProject, warnings);
      const calls = compactionCalls(prep, {
        customInstructions: options.instructions,
        promptText: prompt?.text,
        historyFilesBlock: authoritativeFilesBlock(historyFiles),
        turnPrefixFilesBlock: authoritativeFilesBlock(prefixFiles),
      });
      progress(options, "summarize", `Summarising with ${summarizer.label}${calls.turnPrefix ? " (history and split-turn prefix in parallel)" : ""}`);
      summary = await modelSummary(summarizer, calls, prep, options);
    }
    const lists = computeFileLists(prep.fileOps);
    let text = summary.text + formatFileOperations(lists.readFiles, lists.modifiedFiles);
    let branchFiles: FilesTouched | undefined;
    if (filesOptions.compaction) {
      branchFiles = await filesTouchedOf(pathEntries, filesCwd);
      text = appendManifest(text, branchFiles);
    }
    draft = {
      type: "compaction",
      summary: text,
      firstKeptEntryId: prep.firstKeptEntryId,
      tokensBefore: prep.tokensBefore,
      details: {
        readFiles: lists.readFiles,
        modifiedFiles: lists.modifiedFiles,
        model: modelLabel,
        thinkingLevel: summary.thinkingLevel,
        piSessions: {
          version: 1,
          digest,
          filesTouched: branchFiles ? filesTouchedDetails(branchFiles) : null,
          ...(options.instructions ? { instructions: options.instructions } : {}),
        },
      },
      fromHook: false,
    };
  }

  throwIfAborted(options.signal);
  const planOptions = { parentId: leafId, now: options.now };
  let planned: PlannedAppend = planAppend(session, [draft], planOptions);
  let entry = planned.entries[0] as CompactionEntry;
  let tokensAfter = contextTokensAfter(pathEntries, entry);

  if (options.confirm && !options.dryRun) {
    progress(options, "confirm", "Waiting for the summary to be confirmed");
    const finalText = await options.confirm({ entry, tokensBefore: entry.tokensBefore, tokensAfter, model: modelLabel, warnings });
    if (finalText === null) {
      progress(options, "done", "Discarded; nothing written");
      return { outcome: "discarded", written: false, entry: null, leafId, tokensBefore: entry.tokensBefore, tokensAfter: null, model: modelLabel, digest, warnings, diagnostics };
    }
    if (finalText !== draft.summary) {
      draft = { ...draft, summary: finalText };
      planned = planAppend(session, [draft], planOptions);
      entry = planned.entries[0] as CompactionEntry;
      tokensAfter = contextTokensAfter(pathEntries, entry);
    }
    throwIfAborted(options.signal);
  }

  const result: CompactionRunResult = { outcome: "dry-run", written: false, entry, leafId, tokensBefore: entry.tokensBefore, tokensAfter, model: modelLabel, digest, warnings, diagnostics };
  if (options.dryRun) {
    progress(options, "done", "Dry run; nothing written");
    return result;
  }
  progress(options, "write", "Appending the compaction entry");
  commitAppend(planned);
  if (options.hooks) {
    const after = await options.hooks.emitAfterCompact({ entry, fromHook: draft.fromHook === true });
    diagnostics.push(...after);
    warnings.push(...diagnosticMessages(after));
  }
  progress(options, "done", "Compaction written");
  return { ...result, outcome: "written", written: true };
}

function configPromptRef(path: string | undefined): PromptFileRef | undefined {
  return path ? { path, scope: "user" } : undefined;
}
