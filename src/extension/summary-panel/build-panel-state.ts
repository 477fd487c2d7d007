// The SummaryPanelState of a compaction / branch_summary entry. Pure (no
// vscode): what the host knows about tabs, workspace folders and the file
// system comes in as data, so this is unit-tested with real session files.
// The result always passes the protocol's isSummaryPanelState (the webview
// drops a state that does not), however odd the entry.

import { sessionNameOf } from "../session-facts";
import { sessionOmpMarker } from "../../core/session/dialect/omp-markers";
import { choosePiVersion, type PiVersion } from "../../core/agent";
import { homedir } from "node:os";
import type { LoadedSession } from "../../core/session/open/open-session";
import { LIMITS, PANEL_STATE_VERSION, type PanelMode, type SummaryFile, type SummaryPanelState } from "../../webview/protocol";
import { toSummaryFiles, type FileMarksContext } from "./panel-files";
import { readSummaryEntry, type SummaryEntryFacts } from "./summary-entry";
import { manifestFilesFor, type ManifestSource } from "./summary-files";

/** What the runner reported beside the entry (preview / result); wins over what the entry records. */
export interface SummaryExtras {
  tokensBefore?: number;
  tokensAfter?: number | null;
  model?: string;
}

export interface PanelEnvironment {
  workspaceRoots: readonly string[];
  openPaths: ReadonlySet<string>;
  exists(path: string): boolean;
  homeDir?: string;
  /** An explicit pi version (the setting); default: chosen for the session. */
  piVersion?: PiVersion;
}

export interface PanelStateOptions {
  mode: PanelMode;
  readOnly: boolean;
  extras?: SummaryExtras;
  notice?: string;
}

export interface BuiltPanelState {
  state: SummaryPanelState;
  filesSource: ManifestSource;
}

const EPOCH = "1970-01-01T00:00:00.000Z";

function isIsoTimestamp(x: string | undefined): x is string {
  return x !== undefined && x.length <= LIMITS.timestampChars && /^\d{4}-\d{2}-\d{2}T/.test(x) && !Number.isNaN(Date.parse(x));
}

function clip(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + "…";
}

function id(value: string | undefined): string | undefined {
  return value !== undefined && value.length <= LIMITS.idChars ? value : undefined;
}

function summaryText(text: string): string {
  if (text.length <= LIMITS.summaryChars) return text;
  const note = `\n\n… (cut: the summary has ${text.length.toLocaleString("en-US")} characters)`;
  return text.slice(0, LIMITS.summaryChars - note.length) + note;
}

function count(x: number | null | undefined): number | undefined {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : undefined;
}

export interface StateParts {
  facts: SummaryEntryFacts;
  sessionPath: string;
  sessionName?: string | undefined;
  /** Used when the entry's own timestamp is missing or not ISO 8601. */
  fallbackTimestamp?: string | undefined;
  files: SummaryFile[];
  /** Which pi's semantics apply to the session. */
  piVersion?: PiVersion;
  /** An oh-my-pi session: omp's semantics apply (piVersion is then left out). */
  omp?: boolean;
}

/** Assembles the state from parts already worked out. */
export function assemblePanelState(parts: StateParts, options: PanelStateOptions): SummaryPanelState {
  const facts = parts.facts;
  const extras = options.extras ?? {};
  const timestamp = [facts.timestamp, parts.fallbackTimestamp].find(isIsoTimestamp) ?? EPOCH;
  const model = extras.model && extras.model.length > 0 ? extras.model : facts.model;
  const state: SummaryPanelState = {
    version: PANEL_STATE_VERSION,
    kind: facts.kind,
    sessionPath: parts.sessionPath,
    summary: summaryText(facts.summary),
    model: clip(model, LIMITS.modelChars),
    timestamp,
    files: parts.files,
    mode: options.mode,
    readOnly: options.readOnly,
  };
  if (parts.sessionName) state.sessionName = clip(parts.sessionName, LIMITS.nameChars);
  const entryId = options.mode === "view" ? id(facts.id) : undefined;
  if (entryId) state.entryId = entryId;
  const tokensBefore = count(extras.tokensBefore) ?? facts.tokensBefore;
  if (tokensBefore !== undefined) state.tokensBefore = tokensBefore;
  const tokensAfter = count(extras.tokensAfter) ?? facts.tokensAfter;
  if (tokensAfter !== undefined) state.tokensAfter = tokensAfter;
  const firstKept = id(facts.firstKeptEntryId);
  if (firstKept) state.firstKeptEntryId = firstKept;
  const fromId = id(facts.fromId);
  if (fromId) state.fromId = fromId;
  if (options.notice) state.notice = clip(options.notice, LIMITS.errorChars);
  if (parts.omp) state.agent = "omp";
  else if (parts.piVersion) state.piVersion = parts.piVersion;
  if (facts.writtenInPi) state.origin = originText(facts.writtenInPi.reason);
  return state;
}

const PI_REASONS: Record<string, string> = {
  manual: "/compact",
  threshold: "auto-compaction at the threshold",
  overflow: "auto-compaction after a context overflow",
};

/** A summary our pi extension wrote inside pi: by pi's own /compact, auto-compaction or /tree. */
export function originText(reason: string | undefined): string {
  const why = reason ? PI_REASONS[reason] ?? reason : undefined;
  return clip(`in pi, by the pi-sessions extension${why ? ` (${why})` : ""}`, LIMITS.nameChars);
}

export function fileMarksContext(session: LoadedSession, env: PanelEnvironment): FileMarksContext {
  return {
    sessionCwd: session.header?.cwd || undefined,
    workspaceRoots: env.workspaceRoots,
    openPaths: env.openPaths,
    exists: env.exists,
    homeDir: env.homeDir ?? homedir(),
  };
}

/**
 * The panel state of `entry` (an entry of `session`, or one planned for it):
 * undefined when it is not a compaction or branch_summary entry.
 */
export async function buildPanelState(
  session: LoadedSession,
  entry: unknown,
  env: PanelEnvironment,
  options: PanelStateOptions,
): Promise<BuiltPanelState | undefined> {
  const facts = readSummaryEntry(entry);
  if (!facts || !session.path) return undefined;
  const omp = sessionOmpMarker(session) !== undefined;
  const manifest = await manifestFilesFor(session, facts);
  const files = toSummaryFiles(manifest.files, fileMarksContext(session, env));
  const state = assemblePanelState(
    {
      facts,
      sessionPath: session.path,
      // Each agent's own name for it (omp: its title slot, never pi's session_info).
      sessionName: sessionNameOf(session, omp ? "omp" : "pi") ?? undefined,
      fallbackTimestamp: session.header?.timestamp,
      files,
      piVersion: choosePiVersion({ explicit: env.piVersion, session }).version,
      omp,
    },
    options,
  );
  return { state, filesSource: manifest.source };
}
