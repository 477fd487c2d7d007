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
import { collectEntriesForBranchSummary, resolveNavigationTarget, type BranchSource } from "../branch/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { checkParentChain, checkWritable, commitAppend, planAppend, type PlannedAppend } from "../session/append/append.js";
import type { BranchSummaryDraft, EntryDraft } from "../session/format/serialize-entry.js";
import type { BranchSummaryEntry, CustomEntry, LabelEntry } from "../session/format/types.js";
import type { BranchSummarySettings } from "../settings/index.js";
import { buildBranchSummaryText } from "./branch-summary-draft.js";
import { diagnosticMessages, requireEntry, throwIfAborted, writerAgent, writerPiVersion, type AgentOption, type ProgressListener, type RunOutcome, type SummaryRunOptions } from "./run-common.js";
import type { AgentName } from "../session/format/agent-version.js";
import { persistLeafMove } from "./run-navigate.js";
import { writerSemantics } from "../agent/index.js";

const NO_FILE_OPS = { read: [], written: [], edited: [] };

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
  /** omp's agent dir (its models.yml), for an omp session; default omp's own. */
  ompAgentDir?: string;
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

  const writer = writerSemantics(agent, piVersion).summaryWriter;
  const leaves = { oldLeafId, newLeafId };
  let draft: BranchSummaryDraft | undefined;
  let model: string | null = null;
  let digest = false;
  if (supplied) {
    model = "hook";
    draft = { type: "branch_summary", ...writer.branchEntry({ summary: supplied.summary, details: supplied.details, fileOps: NO_FILE_OPS, ...leaves, source: "hook" }) };
  } else if (summarize && entries.length > 0) {
    const made = await buildBranchSummaryText({
      ...options,
      piVersion,
      agent,
      pathEntries: session.pathTo(options.leafId ?? session.index.leafId),
      entries,
      instructions,
      cwd: session.header?.cwd || cwd,
      trustProject,
      warnings,
    });
    model = made.model;
    digest = made.digest;
    const source = made.digest ? "digest" : made.text ? "model" : "no-content";
    draft = { type: "branch_summary", ...writer.branchEntry({ summary: made.summary, details: made.details, text: made.text, fileOps: made.fileOps, ...leaves, source }) };
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

