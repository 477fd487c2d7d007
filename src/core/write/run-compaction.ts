// runCompaction: the one entry point for compacting a session (CLI and
// extension). pi 0.73's manual compaction (agent-session.js compact) on the
// branch ending at the leaf: prepare, before_compact hooks, the model call(s)
// or the digest, file lists and the files-touched manifest, an optional
// confirm step, one safe append of the `compaction` entry as a child of the
// leaf, after_compact hooks. For a pi 1.5 session, pi 1.5.2's compaction
// (agent-session.js compact → compaction.js compact, appendCompaction): its
// projection-based preparation, prompts and call rules (calls in sequence,
// no fixed maxTokens), and an entry with `usage` and the `systemMessage`
// checkpoint. For an omp session (spec §8 writing tier 4): omp's cut (its
// prepareCompaction with its config.yml settings, after the latest /clear),
// omp's entry shape (no method: the standard template; `fromExtension: true`,
// the summary not being omp's own; an omp `<files>` block), omp's append protocol.

import type { Diagnostic } from "../diagnostics.js";
import { semanticsFor, writerSemantics, type AgentSemantics, type ModelDirs } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { AgentName } from "../session/format/agent-version.js";
import { checkParentChain, checkWritable, commitAppend, planAppend, type PlannedAppend } from "../session/append/append.js";
import type { CompactionDraft } from "../session/format/serialize-entry.js";
import type { CompactionEntry, SessionEntry, Usage as EntryUsage } from "../session/format/types.js";
import type { CompactionSettings } from "../settings/index.js";
import { sessionModel } from "../context/session-model.js";
import { loadModelRegistry } from "../summarize/model-registry.js";
import { buildCompactionDraft } from "./compaction-draft.js";
import {
  agentConfigs,
  diagnosticMessages,
  requireEntry,
  RunInputError,
  throwIfAborted,
  writerAgent,
  writerPiVersion,
  type AgentOption,
  type SummaryRunOptions,
  type ProgressListener,
  type RunOutcome,
} from "./run-common.js";

export interface RunCompactionOptions extends SummaryRunOptions<CompactionProposal>, AgentOption {
  /** omp's agent dir (its config.yml and blob store); default omp's own, from the environment. */
  ompAgentDir?: string;
  /** Default: resolved from the settings files. */
  settings?: CompactionSettings;
  /** Focus text, appended to pi's instructions as "Additional focus: …". */
  instructions?: string;
  /** The session model's context window, when known: a result still over pi's threshold is reported. */
  contextWindow?: number;
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
  /** Whose compaction this is (pi 1.5: entry with usage and systemMessage). */
  piVersion: PiVersion;
  /** Whose session: omp's gets omp's cut and entry shape. */
  agent: AgentName;
  warnings: string[];
  diagnostics: Diagnostic[];
}

/**
 * Tokens of the context pi builds after the new entry, estimated from its
 * messages' text. Usage numbers are not used: the kept assistant messages
 * carry the pre-compaction usage, which pi itself distrusts after a compaction
 * (agent-session.js getContextUsage).
 */
export function contextTokensAfter(pathEntries: readonly SessionEntry[], entry: SessionEntry, semantics: AgentSemantics = semanticsFor("0.73")): number {
  return semantics.summaryWriter.tokensAfter(pathEntries, entry);
}

function progress(options: RunCompactionOptions, phase: Parameters<ProgressListener>[0]["phase"], message: string): void {
  options.onProgress?.({ phase, message });
}

export async function runCompaction(options: RunCompactionOptions): Promise<CompactionRunResult> {
  const { session } = options;
  const warnings: string[] = [];
  const diagnostics: Diagnostic[] = [];
  const piVersion = writerPiVersion(session, options);
  const agent = writerAgent(session, options);
  const semantics = writerSemantics(agent, piVersion);
  const configs = agentConfigs(options);
  checkWritable(session, { piVersion, dialect: agent });
  const leafId = options.leafId ?? session.index.leafId;
  if (leafId === null) throw new RunInputError("empty-branch", `${session.path}: the session has no entries to compact`);
  requireEntry(session, leafId, "leaf");
  checkParentChain(session, leafId);
  const pathEntries = session.pathTo(leafId);
  const trustProject = options.trustProject !== false;
  const cwd = options.cwd ?? session.header?.cwd ?? process.cwd();

  progress(options, "prepare", "Preparing the compaction");
  let settings = options.settings;
  if (!settings) {
    const resolved = semantics.resolveCompactionSettings(semantics.settingsFrom(configs, cwd, trustProject), sessionModelLabel(pathEntries));
    diagnostics.push(...resolved.diagnostics);
    settings = resolved.settings;
  }
  const plan = semantics.planCompaction(pathEntries, settings);
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
      return { outcome: "cancelled", written: false, entry: null, leafId, tokensBefore: prep.tokensBefore, tokensAfter: null, model: "hook", digest: false, piVersion, agent, warnings, diagnostics };
    }
    const supplied = report.result?.compaction;
    if (supplied) {
      if (supplied.firstKeptEntryId !== null) requireEntry(session, supplied.firstKeptEntryId, "firstKeptEntryId from a before_compact hook");
      const fields = semantics.summaryWriter.compactionEntry({ summary: supplied.summary, prep, details: supplied.details, hook: isUsage(supplied.usage) ? { usage: supplied.usage } : {} });
      draft = { type: "compaction", firstKeptEntryId: supplied.firstKeptEntryId, tokensBefore: supplied.tokensBefore, ...fields };
    }
  }

  if (!draft) {
    const made = await buildCompactionDraft({ ...options, piVersion, agent, pathEntries, prep, cwd: session.header?.cwd || cwd, trustProject, warnings, onProgress: options.onProgress });
    draft = made.draft;
    modelLabel = made.model;
    digest = made.digest;
  }
  // pi 1.5's appendCompaction: the branch's current system message, first in every rebuilt context (none for pi 0.73 and omp).
  const systemMessage = semantics.currentSystemMessage(pathEntries);
  if (systemMessage) draft = { ...draft, systemMessage };

  throwIfAborted(options.signal);
  const planOptions = { parentId: leafId, now: options.now, piVersion, dialect: agent };
  let planned: PlannedAppend = planAppend(session, [draft], planOptions);
  let entry = planned.entries[0] as CompactionEntry;
  let tokensAfter = contextTokensAfter(pathEntries, entry, semantics);
  const contextWindow = options.contextWindow ?? (await sessionContextWindow(semantics.modelDirs(configs), pathEntries, piVersion));
  const overThreshold = thresholdWarning(tokensAfter, contextWindow, prep.settings.reserveTokens);
  if (overThreshold) warnings.push(overThreshold);

  if (options.confirm && !options.dryRun) {
    progress(options, "confirm", "Waiting for the summary to be confirmed");
    const finalText = await options.confirm({ entry, tokensBefore: entry.tokensBefore, tokensAfter, model: modelLabel, warnings });
    if (finalText === null) {
      progress(options, "done", "Discarded; nothing written");
      return { outcome: "discarded", written: false, entry: null, leafId, tokensBefore: entry.tokensBefore, tokensAfter: null, model: modelLabel, digest, piVersion, agent, warnings, diagnostics };
    }
    if (finalText !== draft.summary) {
      draft = { ...draft, summary: finalText };
      planned = planAppend(session, [draft], planOptions);
      entry = planned.entries[0] as CompactionEntry;
      tokensAfter = contextTokensAfter(pathEntries, entry, semantics);
    }
    throwIfAborted(options.signal);
  }

  const result: CompactionRunResult = { outcome: "dry-run", written: false, entry, leafId, tokensBefore: entry.tokensBefore, tokensAfter, model: modelLabel, digest, piVersion, agent, warnings, diagnostics };
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

function isUsage(value: unknown): value is EntryUsage {
  const u = value as Partial<EntryUsage> | null;
  return typeof u === "object" && u !== null && typeof u.input === "number" && typeof u.output === "number" && typeof u.totalTokens === "number";
}

/** "provider/modelId" of the session's model: pi 1.5 picks compaction.modelOverrides by it. */
function sessionModelLabel(pathEntries: readonly SessionEntry[]): string | undefined {
  const model = sessionModel(pathEntries).model;
  return model ? `${model.provider}/${model.modelId}` : undefined;
}

/** The session model's context window from the registry (pi-ai + models.json); undefined when unknown. */
async function sessionContextWindow(dirs: ModelDirs, pathEntries: readonly SessionEntry[], piVersion: PiVersion): Promise<number | undefined> {
  const model = sessionModel(pathEntries).model;
  if (!model) return undefined;
  try {
    const window = (await loadModelRegistry({ ...dirs, piVersion })).find(model.provider, model.modelId)?.contextWindow;
    return typeof window === "number" && window > 0 ? window : undefined;
  } catch {
    return undefined;
  }
}

/** Says when the context after a compaction would still be over pi's threshold (pi would compact again at once). */
export function thresholdWarning(tokensAfter: number, contextWindow: number | undefined, reserveTokens: number): string | undefined {
  if (!contextWindow || contextWindow <= 0) return undefined;
  const threshold = contextWindow - reserveTokens;
  if (tokensAfter <= threshold) return undefined;
  return `WARNING: the context after this compaction (~${tokensAfter} tokens) is still above pi's compaction threshold (${contextWindow} − ${reserveTokens} = ${threshold}): it does not free enough of the context, and pi would compact again at once.`;
}
