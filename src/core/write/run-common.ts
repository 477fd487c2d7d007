// What the write runners (compaction, branch summary, navigate, undo) share:
// their errors, progress events, and the summary-call plumbing.

import type { Diagnostic } from "../diagnostics.js";
import type { LoadedSession } from "../session/open/open-session.js";
import { sessionPi1xMarker } from "../session/dialect/pi1x-markers.js";
import { sessionOmpMarker } from "../session/dialect/omp-markers.js";
import type { AgentName } from "../session/format/agent-version.js";
import type { AgentConfigs } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { SessionEntry } from "../session/format/types.js";
import { ModelCallError } from "../summarize/model-call-error.js";
import type { SummaryHooks } from "../hooks/summary-hooks.js";
import type { FilesTouchedOptions } from "./files-for-summary.js";
import type { PromptFileRef } from "./prompt-file.js";
import type { SummarizerChoice } from "./summarizer.js";

/** Bad input for a runner (unknown entry, nothing to compact): CLI exit 1. Nothing was written. */
export class RunInputError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "RunInputError";
  }
}

export type RunPhase = "prepare" | "hooks" | "summarize" | "confirm" | "write" | "done";

export interface RunProgress {
  phase: RunPhase;
  message: string;
}

export type ProgressListener = (progress: RunProgress) => void;

/** What a runner did: written, previewed only, stopped by a hook, or thrown away in the confirm step. */
export type RunOutcome = "written" | "dry-run" | "cancelled" | "discarded" | "unchanged";

export interface ModelCallSettings {
  /** Deadline per summary call, retries included. */
  timeoutMs?: number;
  /** Client-side retries on 429/5xx/connection errors (SDK default when unset). */
  maxRetries?: number;
}

/** What a compaction's and a branch summary's draft both take: whose session, its files and model choice, and the run's plumbing. */
export interface SummaryDraftOptions extends ModelCallSettings {
  piVersion: PiVersion;
  /** Whose session (default pi): its summary writer applies (omp: its prompts, preamble and `<files>` block). */
  agent?: AgentName;
  agentDir: string;
  /** omp's agent dir (its models.yml), for an omp session; default omp's own. */
  ompAgentDir?: string;
  /** The branch root→leaf (gives the session model). */
  pathEntries: readonly SessionEntry[];
  /** The session's cwd (files-touched paths are shown relative to it). */
  cwd: string;
  trustProject: boolean;
  summarizer?: SummarizerChoice;
  /** false: no model available is an error instead of the digest (the pi extension lets pi's own run). Default true. */
  allowDigest?: boolean;
  /** undefined: pi-sessions.json's prompt file; null: the agent's instructions. */
  promptFile?: PromptFileRef | null;
  filesTouched?: Partial<FilesTouchedOptions>;
  signal?: AbortSignal;
  onProgress?: ProgressListener;
  warnings: string[];
  /** Extra fields kept in details.piSessions (e.g. which face wrote it). */
  detailsExtra?: Record<string, unknown>;
}

/** What every writer takes to know whose entries to write. */
export interface PiVersionOption {
  /**
   * Whose semantics, entry shapes, prompts, call rules and config syntax apply.
   * Default: "1.5" when the session holds a pi 1.x marker, else "0.73" (the CLI
   * and the extension pass their own choice: flag, setting, installed pi).
   */
  piVersion?: PiVersion;
}

/** Whose session a writer writes to: the caller's choice (flag, the agent dir the file lies under), else omp when the file holds omp's marks. */
export interface AgentOption {
  agent?: AgentName;
}

/** The agent dirs a runner was given, for the session's semantics to pick from (`AgentSemantics.agentDir`, `modelDirs`). */
export function agentConfigs(options: { agentDir: string; ompAgentDir?: string }): AgentConfigs {
  return { pi: { agentDir: options.agentDir }, omp: { agentDir: options.ompAgentDir } };
}

export function writerAgent(session: LoadedSession, options: AgentOption): AgentName {
  return options.agent ?? (sessionOmpMarker(session) ? "omp" : "pi");
}

/** The version a writer applies: the caller's, else the session's own markers. */
export function writerPiVersion(session: LoadedSession, options: PiVersionOption): PiVersion {
  return options.piVersion ?? (sessionPi1xMarker(session) ? "1.5" : "0.73");
}

/** What every summarising runner (compaction, branch summary) takes. */
export interface SummaryRunOptions<Proposal> extends ModelCallSettings, PiVersionOption {
  session: LoadedSession;
  /** The leaf of the branch the run starts from; default the file's last entry (where pi resumes). */
  leafId?: string;
  /** pi's agent dir (models, keys, settings, pi-sessions.json). */
  agentDir: string;
  /** Project dir for settings; default the session header's cwd. */
  cwd?: string;
  /** false: an untrusted workspace (its .pi/settings.json and project prompt files are not read). Default true. */
  trustProject?: boolean;
  summarizer?: SummarizerChoice;
  /** Replaces pi's instructions; default pi-sessions.json's prompt file for this kind of summary. */
  promptFile?: PromptFileRef | null;
  filesTouched?: Partial<FilesTouchedOptions>;
  signal?: AbortSignal;
  hooks?: SummaryHooks;
  onProgress?: ProgressListener;
  /** Work everything out (model call included), write nothing. */
  dryRun?: boolean;
  /** Preview-and-edit: the final summary text, or null to write nothing. */
  confirm?: (proposal: Proposal) => Promise<string | null>;
  now?: () => Date;
}

export function requireEntry(session: LoadedSession, id: string, what: string): void {
  if (!session.index.get(id)) throw new RunInputError("unknown-entry", `${session.path ?? "session"}: no entry with id '${id}' (${what})`);
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ModelCallError("aborted", "Cancelled before anything was written.");
}

/** Hook diagnostics as warning lines. */
export function diagnosticMessages(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => d.message);
}
