// runBranchSummary: leaving the branch that ends at the leaf for another
// entry, the way pi's /tree does it with a summary (agent-session.js
// navigateTree, branch-summarization.js generateBranchSummary): the entries
// back to the common ancestor are summarised in one call (maxTokens 2048, no
// reasoning, budget = context window − branchSummary.reserveTokens), and a
// `branch_summary` entry is appended as a child of the new leaf with
// fromId = the new leaf ("root" when none). Nothing to summarise: the leaf
// just moves (persisted like runNavigate). For a pi 1.5 session, pi 1.5.2's
// generateBranchSummary and branchWithSummary: context edits applied to the
// entries, its prompts, no fixed maxTokens, the thinking level when the model
// reasons, and an entry with fromId = the leaf being left and `usage`.

import { randomUUID } from "node:crypto";
import type { Diagnostic } from "../diagnostics.js";
import {
  branchSummaryTokenBudget,
  buildBranchSummaryRequest,
  collectEntriesForBranchSummary,
  composeBranchSummary,
  NO_CONTENT_SUMMARY,
  resolveNavigationTarget,
  type BranchSource,
} from "../branch/index.js";
import { computeFileLists, getMessageFromEntry } from "../compaction/index.js";
import { appendManifest, type FilesTouched } from "../files-touched/index.js";
import { semanticsFor } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { checkParentChain, checkWritable, commitAppend, planAppend, type PlannedAppend } from "../session/append/append.js";
import type { BranchSummaryDraft, EntryDraft } from "../session/format/serialize-entry.js";
import type { BranchSummaryEntry, CustomEntry, LabelEntry, SessionEntry, Usage } from "../session/format/types.js";
import { resolveBranchSummarySettings, type BranchSummarySettings } from "../settings/index.js";
import { completeSummaryWithUsage } from "../summarize/call-model.js";
import { buildDigest } from "../summarize/digest.js";
import { authoritativeFilesBlock, DEFAULT_FILES_TOUCHED, filesTouchedDetails, filesTouchedOf } from "./files-for-summary.js";
import { readPromptFile, type PromptFileRef } from "./prompt-file.js";
import { diagnosticMessages, requireEntry, throwIfAborted, writerAgent, writerPiVersion, type AgentOption, type ProgressListener, type RunOutcome, type SummaryRunOptions } from "./run-common.js";
import { OMP_18, type AgentName } from "../session/format/agent-version.js";
import { upsertOmpFileOperations } from "./omp-files-block.js";

/** omp's branch-summary-preamble.md as rendered: its own text comes right after it, without a separator. */
export const OMP_BRANCH_SUMMARY_PREAMBLE = "User explored another conversation branch, then returned here.\nExploration summary:";
import { persistLeafMove } from "./run-navigate.js";
import { chooseSummarizer } from "./summarizer.js";

/** `leafId` is the leaf being left. */
export interface RunBranchSummaryOptions extends SummaryRunOptions<BranchSummaryProposal>, AgentOption {
  /** The entry picked in the tree. */
  targetId: string;
  /** false: move without a summary (hooks still run, as in pi). Default true. */
  summarize?: boolean;
  settings?: BranchSummarySettings;
  /** Focus text ("Additional focus: …"), or the whole instructions with replaceInstructions. */
  instructions?: string;
  replaceInstructions?: boolean;
  /** Label for the summary entry (or the target when there is no summary). */
  label?: string;
}

export interface BranchSummaryProposal {
  entry: BranchSummaryEntry;
  model: string;
  warnings: readonly string[];
}

export interface BranchSummaryRunResult {
  outcome: RunOutcome;
  written: boolean;
  /** The branch_summary entry (written or planned); null when there was nothing to summarise, or cancelled. */
  entry: BranchSummaryEntry | null;
  /** When there was nothing to summarise: the navigation entry that moved the leaf instead. */
  navigateEntry: CustomEntry | null;
  labelEntry: LabelEntry | null;
  newLeafId: string | null;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  /** For a user message / custom_message target: its text, to edit and send again. */
  editorText?: string;
  /** Entries left behind (summarised). */
  abandonedEntries: number;
  model: string | null;
  digest: boolean;
  piVersion: PiVersion;
  /** Whose session: omp's gets omp's entry shape and text. */
  agent: AgentName;
  warnings: string[];
  diagnostics: Diagnostic[];
}

interface Instructions {
  customInstructions?: string;
  replaceInstructions?: boolean;
}

/** A prompt file replaces pi's instructions; focus text still goes after it. Explicit replaceInstructions wins. */
function withPromptFile(instructions: Instructions, promptText: string | undefined): Instructions {
  if (!promptText || (instructions.replaceInstructions && instructions.customInstructions)) return instructions;
  const focus = instructions.customInstructions ? `\n\nAdditional focus: ${instructions.customInstructions}` : "";
  return { customInstructions: promptText + focus, replaceInstructions: true };
}

function progress(options: RunBranchSummaryOptions, phase: Parameters<ProgressListener>[0]["phase"], message: string): void {
  options.onProgress?.({ phase, message });
}

export async function runBranchSummary(options: RunBranchSummaryOptions): Promise<BranchSummaryRunResult> {
  const { session, targetId } = options;
  const warnings: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const piVersion = writerPiVersion(session, options);
  const agent = writerAgent(session, options);
  checkWritable(session, { piVersion, dialect: agent });
  requireEntry(session, targetId, "target");
  if (options.leafId !== undefined) requireEntry(session, options.leafId, "leaf");
  const oldLeafId = options.leafId ?? session.index.leafId;
  const summarize = options.summarize !== false;
  const trustProject = options.trustProject !== false;
  const cwd = options.cwd ?? session.header?.cwd ?? process.cwd();
  const target = session.entry(targetId)!;
  const { newLeafId, editorText } = resolveNavigationTarget(target);
  // Before any model call: the new leaf's path to a root must be a simple chain.
  if (targetId !== oldLeafId) checkParentChain(session, newLeafId);
  const source: BranchSource = { getBranch: (id) => session.pathTo(id), getEntry: (id) => session.entry(id) };
  const { entries, commonAncestorId } = collectEntriesForBranchSummary(source, oldLeafId, targetId);
  const base = {
    newLeafId,
    oldLeafId,
    commonAncestorId,
    ...(editorText !== undefined ? { editorText } : {}),
    abandonedEntries: entries.length,
    piVersion,
    agent,
    warnings,
    diagnostics,
  };
  if (targetId === oldLeafId) {
    return { ...base, outcome: "unchanged", written: false, entry: null, navigateEntry: null, labelEntry: null, model: null, digest: false };
  }

  let instructions: Instructions = { customInstructions: options.instructions, replaceInstructions: options.replaceInstructions };
  let label = options.label;
  let supplied: { summary: string; details?: unknown } | undefined;
  if (options.hooks?.has("before_branch_summary")) {
    progress(options, "hooks", "Running before_branch_summary hooks");
    const report = await options.hooks.runBeforeBranchSummary({
      preparation: { targetId, oldLeafId, commonAncestorId, entriesToSummarize: entries, userWantsSummary: summarize, ...instructions, label },
      signal: options.signal ?? new AbortController().signal,
    });
    diagnostics.push(...report.diagnostics);
    warnings.push(...diagnosticMessages(report.diagnostics));
    if (report.cancelled) {
      return { ...base, outcome: "cancelled", written: false, entry: null, navigateEntry: null, labelEntry: null, model: null, digest: false };
    }
    const result = report.result;
    if (result?.summary && summarize) supplied = result.summary;
    if (result?.customInstructions !== undefined) instructions = { ...instructions, customInstructions: result.customInstructions };
    if (result?.replaceInstructions !== undefined) instructions = { ...instructions, replaceInstructions: result.replaceInstructions };
    if (result?.label !== undefined) label = result.label;
  }

  // pi 0.73 and omp write the new leaf as fromId; pi 1.5 writes the leaf being left.
  const fromId = (piVersion === "1.5" && agent !== "omp" ? oldLeafId : newLeafId) ?? "root";
  // omp's flag (the summary is not omp's own); pi's fromHook means nothing to omp.
  const flags = (fromHook: boolean) => (agent === "omp" ? { fromExtension: true } : { fromHook });
  let draft: BranchSummaryDraft | undefined;
  let model: string | null = null;
  let digest = false;
  if (supplied) {
    model = "hook";
    draft = { type: "branch_summary", fromId, summary: supplied.summary, details: supplied.details, ...flags(true) };
  } else if (summarize && entries.length > 0) {
    const made = await summarizeEntries({ ...options, piVersion, agent }, entries, instructions, cwd, trustProject, warnings);
    model = made.model;
    digest = made.digest;
    draft = { type: "branch_summary", fromId, summary: made.summary, details: made.details, ...(made.usage && agent !== "omp" ? { usage: made.usage } : {}), ...flags(false) };
  }

  throwIfAborted(options.signal);
  if (!draft || draft.summary === "") {
    // pi: no summary text → the leaf only moves.
    const labelMove = label ? { targetId, label } : undefined;
    const moved = persistLeafMove(session, { newLeafId, data: { fromLeafId: oldLeafId, targetId }, label: labelMove }, { ...options, piVersion, agent });
    return { ...base, outcome: moved.outcome, written: moved.outcome === "written", entry: null, navigateEntry: moved.entry, labelEntry: moved.labelEntry, model, digest };
  }

  const drafts = (d: BranchSummaryDraft): EntryDraft[] => [d];
  const planOptions = { parentId: newLeafId, now: options.now, piVersion, dialect: agent };
  // The label goes on the summary entry, whose id is only known once planned.
  const planWithLabel = (d: BranchSummaryDraft): PlannedAppend => {
    const first = planAppend(session, drafts(d), planOptions);
    if (!label) return first;
    const summaryId = first.entries[0]!.id;
    return planAppend(session, [d, { type: "label", targetId: summaryId, label }], { ...planOptions, newId: onceThen(summaryId) });
  };
  let planned = planWithLabel(draft);
  if (options.confirm && !options.dryRun) {
    progress(options, "confirm", "Waiting for the summary to be confirmed");
    const finalText = await options.confirm({ entry: planned.entries[0] as BranchSummaryEntry, model: model ?? "hook", warnings });
    if (finalText === null) {
      return { ...base, outcome: "discarded", written: false, entry: null, navigateEntry: null, labelEntry: null, model, digest };
    }
    if (finalText !== draft.summary) {
      draft = { ...draft, summary: finalText };
      planned = planWithLabel(draft);
    }
    throwIfAborted(options.signal);
  }
  const entry = planned.entries[0] as BranchSummaryEntry;
  const labelEntry = (planned.entries[1] as LabelEntry | undefined) ?? null;
  if (options.dryRun) {
    return { ...base, outcome: "dry-run", written: false, entry, navigateEntry: null, labelEntry, model, digest };
  }
  progress(options, "write", "Appending the branch summary entry");
  commitAppend(planned);
  if (options.hooks) {
    const after = await options.hooks.emitAfterBranchSummary({ entry, newLeafId, oldLeafId, fromHook: draft.fromHook === true });
    diagnostics.push(...after);
    warnings.push(...diagnosticMessages(after));
  }
  progress(options, "done", "Branch summary written");
  return { ...base, outcome: "written", written: true, entry, navigateEntry: null, labelEntry, model, digest };
}

/** An id source that gives `first` once, then random ids (so a re-plan keeps the summary's id). */
function onceThen(first: string): () => string {
  let given = false;
  return () => {
    if (!given) {
      given = true;
      return first;
    }
    return randomUUID().slice(0, 8);
  };
}

async function summarizeEntries(
  options: RunBranchSummaryOptions,
  entries: readonly SessionEntry[],
  instructions: Instructions,
  cwd: string,
  trustProject: boolean,
  warnings: string[],
): Promise<{ summary: string; details: unknown; model: string; digest: boolean; usage?: Usage }> {
  const { session } = options;
  const piVersion = options.piVersion ?? "0.73";
  const omp = options.agent === "omp";
  const semantics = omp ? semanticsFor(OMP_18) : semanticsFor(piVersion);
  let settings = options.settings;
  if (!settings) settings = resolveBranchSummarySettings({ agentDir: options.agentDir, cwd, trustProject }).settings;
  const pathEntries = session.pathTo(options.leafId ?? session.index.leafId);
  const summarizer = await chooseSummarizer({ agentDir: options.agentDir, pathEntries, choice: options.summarizer ?? {}, warnings, piVersion });
  const contextWindow = summarizer.kind === "model" ? summarizer.resolved.model.contextWindow : undefined;
  const prepared = semantics.prepareBranchEntries(entries, branchSummaryTokenBudget(contextWindow, settings.reserveTokens));
  const lists = computeFileLists(prepared.fileOps);
  const filesOptions = { ...DEFAULT_FILES_TOUCHED, ...options.filesTouched };
  const filesCwd = session.header?.cwd || cwd;
  const abandonedFiles: FilesTouched = await filesTouchedOf(entries, filesCwd);

  let text: string;
  let usage: Usage | undefined;
  if (prepared.messages.length === 0) {
    // pi writes this without calling the model (and without file blocks).
    return { summary: NO_CONTENT_SUMMARY, details: { readFiles: [], modifiedFiles: [] }, model: summarizer.label, digest: summarizer.kind === "digest" };
  }
  if (summarizer.kind === "digest") {
    progress(options, "summarize", "Building the digest (no model)");
    // The digest reads every abandoned entry, tool results included (pi's budgeted list leaves them out).
    const messages = entries.map(getMessageFromEntry).filter((m): m is NonNullable<typeof m> => m !== undefined);
    text = buildDigest({ messages, files: abandonedFiles.files });
  } else {
    const promptRef = options.promptFile === undefined ? pathRef(summarizer.resolved.config.branchSummaryPromptFile) : (options.promptFile ?? undefined);
    const prompt = await readPromptFile(promptRef, trustProject, warnings);
    const request = buildBranchSummaryRequest({ messages: prepared.messages, ...withPromptFile(instructions, prompt?.text), semantics });
    progress(options, "summarize", `Summarising the abandoned branch with ${summarizer.label}`);
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
  let summary = omp ? OMP_BRANCH_SUMMARY_PREAMBLE + text : composeBranchSummary(text, lists);
  if (filesOptions.branchSummary) summary = appendManifest(summary, abandonedFiles);
  if (omp) summary = upsertOmpFileOperations(summary, lists.readFiles, lists.modifiedFiles, new Set(prepared.fileOps.read));
  return {
    summary,
    details: {
      readFiles: lists.readFiles,
      modifiedFiles: lists.modifiedFiles,
      model: summarizer.label,
      piSessions: {
        version: 1,
        digest: summarizer.kind === "digest",
        filesTouched: filesOptions.branchSummary ? filesTouchedDetails(abandonedFiles) : null,
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
