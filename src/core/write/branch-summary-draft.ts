// The text of a branch summary for the entries of an abandoned branch, as
// pi's generateBranchSummary makes it (budgeted entries, one call, its
// prompts, per version), with the prompt file, the authoritative files list,
// pi's file lists and the grounded files-touched block of the abandoned
// entries, bounded to the summary budget. Shared by runBranchSummary (CLI,
// VS Code) and the pi extension's session_before_tree.

import { BRANCH_SUMMARY_PREAMBLE, branchSummaryTokenBudget, buildBranchSummaryRequest, NO_CONTENT_SUMMARY } from "../branch/index.js";
import { computeFileLists, getMessageFromEntry } from "../compaction/index.js";
import type { FilesTouched } from "../files-touched/index.js";
import { semanticsFor } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { OMP_18, type AgentName } from "../session/format/agent-version.js";
import type { SessionEntry, Usage } from "../session/format/types.js";
import { resolveBranchSummarySettings, type BranchSummarySettings } from "../settings/index.js";
import { completeSummaryWithUsage } from "../summarize/call-model.js";
import { buildDigest } from "../summarize/digest.js";
import { boundSummary, summaryBudget } from "./bounded-summary.js";
import { NoSummaryModelError } from "./compaction-draft.js";
import { authoritativeFilesBlock, DEFAULT_FILES_TOUCHED, filesTouchedDetails, filesTouchedOf, type FilesTouchedOptions } from "./files-for-summary.js";
import { upsertOmpFileOperations } from "./omp-files-block.js";
import { readPromptFile, type PromptFileRef } from "./prompt-file.js";
import type { ModelCallSettings, ProgressListener } from "./run-common.js";
import { chooseSummarizer, type SummarizerChoice } from "./summarizer.js";

export interface BranchSummaryInstructions {
  customInstructions?: string;
  replaceInstructions?: boolean;
}

/** omp's branch-summary-preamble.md as rendered: its own text comes right after it, without a separator. */
export const OMP_BRANCH_SUMMARY_PREAMBLE = "User explored another conversation branch, then returned here.\nExploration summary:";

export interface BranchSummaryTextOptions extends ModelCallSettings {
  piVersion: PiVersion;
  /** Whose session: omp's text starts with omp's preamble and ends with omp's `<files>` block (default pi). */
  agent?: AgentName;
  agentDir: string;
  /** The branch being left, root→leaf (gives the session model). */
  pathEntries: readonly SessionEntry[];
  /** The abandoned entries (collectEntriesForBranchSummary). */
  entries: readonly SessionEntry[];
  instructions: BranchSummaryInstructions;
  /** The session's cwd. */
  cwd: string;
  trustProject: boolean;
  settings?: BranchSummarySettings;
  summarizer?: SummarizerChoice;
  /** false: no model available is an error instead of the digest. Default true. */
  allowDigest?: boolean;
  promptFile?: PromptFileRef | null;
  filesTouched?: Partial<FilesTouchedOptions>;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  warnings: string[];
  detailsExtra?: Record<string, unknown>;
}

export interface BranchSummaryText {
  summary: string;
  details: unknown;
  model: string;
  digest: boolean;
  usage?: Usage;
}

/** A prompt file replaces pi's instructions; focus text still goes after it. Explicit replaceInstructions wins. */
function withPromptFile(instructions: BranchSummaryInstructions, promptText: string | undefined): BranchSummaryInstructions {
  if (!promptText || (instructions.replaceInstructions && instructions.customInstructions)) return instructions;
  const focus = instructions.customInstructions ? `\n\nAdditional focus: ${instructions.customInstructions}` : "";
  return { customInstructions: promptText + focus, replaceInstructions: true };
}

export async function buildBranchSummaryText(options: BranchSummaryTextOptions): Promise<BranchSummaryText> {
  const { entries, instructions, cwd, trustProject, warnings, piVersion } = options;
  const omp = options.agent === "omp";
  const semantics = omp ? semanticsFor(OMP_18) : semanticsFor(piVersion);
  let settings = options.settings;
  if (!settings) settings = resolveBranchSummarySettings({ agentDir: options.agentDir, cwd, trustProject }).settings;
  const pathEntries = options.pathEntries;
  const summarizer = await chooseSummarizer({ agentDir: options.agentDir, pathEntries, choice: options.summarizer ?? {}, warnings, piVersion });
  const contextWindow = summarizer.kind === "model" ? summarizer.resolved.model.contextWindow : undefined;
  const prepared = semantics.prepareBranchEntries(entries, branchSummaryTokenBudget(contextWindow, settings.reserveTokens));
  const lists = computeFileLists(prepared.fileOps);
  const configFiles = summarizer.kind === "model" ? summarizer.resolved.config.filesTouched : undefined;
  const filesOptions = { ...DEFAULT_FILES_TOUCHED, ...configFiles, ...options.filesTouched };
  if (summarizer.kind === "digest" && !summarizer.requested && options.allowDigest === false) throw new NoSummaryModelError(summarizer.reason ?? "no model available");
  const abandonedFiles: FilesTouched = await filesTouchedOf(entries, cwd);

  let text: string;
  let usage: Usage | undefined;
  if (prepared.messages.length === 0) {
    // pi writes this without calling the model (and without file blocks).
    return { summary: NO_CONTENT_SUMMARY, details: { readFiles: [], modifiedFiles: [] }, model: summarizer.label, digest: summarizer.kind === "digest" };
  }
  if (summarizer.kind === "digest") {
    options.onProgress?.({ phase: "summarize", message: "Building the digest (no model)" });
    // The digest reads every abandoned entry, tool results included (pi's budgeted list leaves them out).
    const messages = entries.map(getMessageFromEntry).filter((m): m is NonNullable<typeof m> => m !== undefined);
    text = buildDigest({ messages, files: abandonedFiles.files });
  } else {
    const promptRef = options.promptFile === undefined ? pathRef(summarizer.resolved.config.branchSummaryPromptFile) : (options.promptFile ?? undefined);
    const prompt = await readPromptFile(promptRef, trustProject, warnings);
    const request = buildBranchSummaryRequest({ messages: prepared.messages, ...withPromptFile(instructions, prompt?.text), semantics });
    options.onProgress?.({ phase: "summarize", message: `Summarising the abandoned branch with ${summarizer.label}` });
    const answer = await completeSummaryWithUsage({
      piVersion,
      model: summarizer.resolved.model,
      apiKey: summarizer.resolved.apiKey,
      headers: summarizer.resolved.headers,
      systemPrompt: request.systemPrompt,
      userText: request.userText + authoritativeFilesBlock(abandonedFiles),
      maxTokens: request.maxTokens,
      // pi 1.5 reasons at the session's thinking level when the model reasons (#11444); 0.73 never did.
      ...(piVersion === "1.5" ? { thinkingLevel: summarizer.resolved.thinkingLevel } : {}),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
    text = answer.text;
    if (piVersion === "1.5") usage = answer.usage as unknown as Usage;
  }
  const bounded = boundSummary({
    text: (omp ? OMP_BRANCH_SUMMARY_PREAMBLE : BRANCH_SUMMARY_PREAMBLE) + text,
    readFiles: omp ? [] : lists.readFiles,
    modifiedFiles: omp ? [] : lists.modifiedFiles,
    manifest: filesOptions.branchSummary ? abandonedFiles : undefined,
    budgetTokens: summaryBudget(settings.reserveTokens),
  });
  if (bounded.textCut) warnings.push("The summary text was cut to keep the summary within its budget (pi's branchSummary.reserveTokens).");
  return {
    summary: omp ? upsertOmpFileOperations(bounded.summary, lists.readFiles, lists.modifiedFiles, new Set(prepared.fileOps.read)) : bounded.summary,
    details: {
      readFiles: lists.readFiles,
      modifiedFiles: lists.modifiedFiles,
      model: summarizer.label,
      piSessions: {
        version: 1,
        digest: summarizer.kind === "digest",
        filesTouched: filesOptions.branchSummary ? filesTouchedDetails(abandonedFiles) : null,
        ...(bounded.folded ? { folded: true } : {}),
        ...options.detailsExtra,
        ...(instructions.customInstructions && !instructions.replaceInstructions ? { instructions: instructions.customInstructions } : {}),
      },
    },
    model: summarizer.label,
    digest: summarizer.kind === "digest",
    ...(usage ? { usage } : {}),
  };
}

function pathRef(path: string | undefined): PromptFileRef | undefined {
  return path ? { path, scope: "user" } : undefined;
}
