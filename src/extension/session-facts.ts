// What a list row and the status bar say about one session: its title, size,
// context tokens against the model's window, and whether pi would auto-compact.
// No vscode here: plain data from the core.
import { basename } from "node:path";
import type { LoadedSession } from "../core/session/open/open-session";
import { firstUserMessageText, recordedCwd } from "../core/session/open/session-info";
import { lastActivityMs } from "../core/discovery/last-activity";
import type { CompactionSettings, SettingsObject } from "../core/settings";
import { rowTitle, type CatalogueRow } from "../core/catalogue/catalogue-row";
import type { BranchFacts } from "../core/live/live-facts";
import type { SessionModelRef } from "../core/context/session-model";
import type { ContextUsage } from "../core/tokens";
import { choosePiVersion, formatAgentVersion, semanticsOf, type AgentConfigs, type AgentSemantics, type PiVersion, type PiVersionChoice } from "../core/agent";
import { oneLine } from "../core/tree/preview";
import { sessionOmpMarker } from "../core/session/dialect/omp-markers";
import type { AgentName } from "../core/session/format/agent-version";
import { isAbsolute, relative } from "node:path";

/** Where the agent compacts (pi above window − reserve; omp at its threshold), by its semantics. */
function thresholdOf(semantics: AgentSemantics, contextWindow: number | undefined, compaction: CompactionSettings): { threshold: number | undefined; wouldCompact(tokens: number): boolean } {
  if (contextWindow === undefined) return { threshold: undefined, wouldCompact: () => false };
  return { threshold: semantics.compactionThreshold(contextWindow, compaction), wouldCompact: (tokens) => semantics.shouldCompact(tokens, contextWindow, compaction) };
}

/** Whose session a file is, and why: omp's marks in the file, else omp's folder, else pi's. */
export function sessionAgent(path: string, marked: string | undefined, ompSessionsRoot: string | undefined): { agent: AgentName; reason?: string } {
  if (marked) return { agent: "omp", reason: marked };
  if (ompSessionsRoot) {
    const rel = relative(ompSessionsRoot, path);
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) return { agent: "omp", reason: "it lies in omp's sessions folder" };
  }
  return { agent: "pi" };
}

export interface SessionFacts {
  path: string;
  title: string;
  /** session_info name, when set. */
  name: string | null;
  entryCount: number;
  leafId: string | null;
  usage: ContextUsage;
  model: SessionModelRef | null;
  /** The model's context window; undefined while the registry is not loaded or the model is unknown. */
  contextWindow: number | undefined;
  compaction: CompactionSettings;
  /** pi would compact this branch before the next prompt. */
  wouldCompact: boolean;
  /** Tokens at which pi compacts (window − reserve), when the window is known. */
  threshold: number | undefined;
  hasCompaction: boolean;
  needsMigration: boolean;
  headerMissing: boolean;
  problems: number;
  /** The newest of its entries' timestamps (ours included) and the file's mtime (core lastActivityMs). */
  lastActivity: Date;
  /** `message` entries in the file (pi's session list counts these). */
  messageCount: number;
  /** Size on disk when last read. */
  sizeBytes: number;
  /** Total tokens and cost of every entry of the file, as pi 1.5 totals them. */
  totals: { tokens: number; cost: number };
  /** Whose session it is: oh-my-pi's (its title slot, an entry only omp writes, or omp's folder) or pi's. */
  agent: AgentName;
  /** Why it is omp's (for tooltips). */
  agentReason?: string;
  /** Which pi's semantics the facts were computed with, and why (for tooltips). */
  piVersion: PiVersion;
  piVersionReason: string;
  /** pi 1.5 rejects the compaction settings (its message); the defaults are shown meanwhile. */
  settingsError?: string;
}

export interface FactsContext {
  agentDir: string;
  trusted: boolean;
  overrides: SettingsObject;
  /** An explicit choice (a setting other than auto); default: automatic per session. */
  piVersion?: PiVersion;
  /** oh-my-pi's sessions folder (files under it are omp's); undefined when omp discovery is off. */
  ompSessionsRoot?: string;
  /** oh-my-pi's agent dir (its config.yml); default omp's own. */
  ompAgentDir?: string;
  contextWindow(model: SessionModelRef): number | undefined;
}

/** Per session, what does not change with an append: the title's first request and the compaction settings of its cwd. */
export interface FactsMemo {
  firstRequest?: string | null;
  compaction?: CompactionSettings;
  /** The pi version and model the compaction settings were resolved for (1.5 applies modelOverrides). */
  compactionKey?: string;
  settingsError?: string;
  problems?: number;
}

/**
 * The row and status-bar facts of a session from its live branch facts (kept
 * up to date from appended entries by LiveSessionFacts) and the index's totals:
 * no body is parsed here but the first request's, once per session (memo).
 */
export function sessionFacts(
  session: LoadedSession,
  branch: BranchFacts,
  choice: PiVersionChoice,
  context: FactsContext,
  stat?: { mtime: Date; size: number },
  memo: FactsMemo = {},
): SessionFacts {
  const path = session.path ?? "";
  const owner = sessionAgent(path, sessionOmpMarker(session)?.what, context.ompSessionsRoot);
  const semantics = semanticsOf(owner.agent, choice.version);
  // Each agent names a session its own way (omp: its title slot, never pi's session_info).
  const name = semantics.sessionName({ sessionInfoName: branch.name ?? undefined, titleSlot: session.titleSlot ?? null, header: session.header ?? null });
  if (name === null && memo.firstRequest === undefined) memo.firstRequest = firstUserMessageText(session, { skipBlank: true });
  const title = oneLine(name ?? memo.firstRequest ?? basename(path), 80);
  const usage = branch.usage;
  const model = branch.model;
  const contextWindow = model ? context.contextWindow(model) : undefined;
  const modelKey = `${formatAgentVersion(semantics.agent)} ${model ? `${model.provider}/${model.modelId}` : ""}`;
  if (!memo.compaction || memo.compactionKey !== modelKey) {
    memo.compactionKey = modelKey;
    const resolved = versionCompaction(semantics, recordedCwd(session), model, context);
    memo.compaction = resolved.compaction;
    memo.settingsError = resolved.settingsError;
  }
  const compaction = memo.compaction;
  const settingsError = memo.settingsError;
  const limits = thresholdOf(semantics, contextWindow, compaction);
  const wouldCompact = limits.wouldCompact(usage.tokens);
  const spend = session.index.totalSpend;
  return {
    path,
    title,
    name,
    entryCount: branch.entryCount,
    leafId: branch.leafId,
    usage,
    model,
    contextWindow,
    compaction,
    wouldCompact,
    threshold: limits.threshold,
    hasCompaction: branch.hasCompaction,
    needsMigration: session.needsMigration,
    headerMissing: session.headerMissing,
    // Counting problems analyses the whole tree: only when a tooltip asks, once per read of the file.
    get problems(): number {
      return (memo.problems ??= session.diagnostics.length);
    },
    lastActivity: new Date(lastActivityMs(session.index.newestEntryTime, stat?.mtime.getTime() ?? 0)),
    messageCount: branch.messageCount,
    sizeBytes: stat?.size ?? 0,
    totals: { tokens: spend.input + spend.output + spend.cacheRead + spend.cacheWrite, cost: spend.cost },
    agent: owner.agent,
    ...(owner.reason ? { agentReason: owner.reason } : {}),
    piVersion: choice.version,
    piVersionReason: choice.reason,
    ...(settingsError !== undefined ? { settingsError } : {}),
  };
}

/** The strategy of the session the facts are of (its agent's; for pi, the version they were computed with). */
export function factsSemantics(facts: Pick<SessionFacts, "agent" | "piVersion">): AgentSemantics {
  return semanticsOf(facts.agent, facts.piVersion);
}

/** 12345 → "12.3k". */
export function compactNumber(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0).replace(/\.0$/, "")}k`;
  return `${(n / 1_000_000).toFixed(1).replace(/\.0$/, "")}M`;
}

/** "12.3k / 200k (6%)" or "~12.3k tokens" without a window. */
export function tokensText(facts: Pick<SessionFacts, "usage" | "contextWindow">): string {
  const approx = facts.usage.source === "usage" ? "" : "~";
  if (facts.contextWindow === undefined) return `${approx}${compactNumber(facts.usage.tokens)} tokens`;
  const percent = Math.round((facts.usage.tokens / facts.contextWindow) * 100);
  return `${approx}${compactNumber(facts.usage.tokens)} / ${compactNumber(facts.contextWindow)} (${percent}%)`;
}

/** 1536 → "1.5 KB". */
export function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

/** 0.1234 → "$0.12"; under a cent "<$0.01"; none "$0". */
export function costText(cost: number): string {
  if (cost === 0) return "$0";
  if (cost < 0.01) return "<$0.01";
  return `$${cost.toFixed(2)}`;
}

/** How long ago, coarsely: "just now", "5 min ago", "3 h ago", "2 d ago", else the date. */
export function agoText(when: Date, now = Date.now()): string {
  const seconds = Math.max(0, (now - when.getTime()) / 1000);
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  if (seconds < 30 * 86400) return `${Math.floor(seconds / 86400)} d ago`;
  return when.toISOString().slice(0, 10);
}

/** Compaction settings as one pi version applies them to a session (cwd, model), or its settings error and the defaults. */
export interface VersionCompaction {
  compaction: CompactionSettings;
  settingsError?: string;
}

/** Rows of one cwd, pi version and model share their settings: resolved once per key. */
export type RowCompactionCache = Map<string, VersionCompaction>;

/** What a session's agent reads its settings from: pi's agent dir with piSessions.* over pi's files; omp's agent dir and its config.yml alone. */
function factsConfigs(context: FactsContext): AgentConfigs {
  return { pi: { agentDir: context.agentDir, overrides: context.overrides }, omp: { agentDir: context.ompAgentDir } };
}

/** The agent's compaction settings for a session (pi 1.5 applies `compaction.modelOverrides` for its model and rejects bad values: its message, and the files read as pi 0.73 reads them meanwhile). */
function versionCompaction(semantics: AgentSemantics, cwd: string | undefined, model: SessionModelRef | null, context: FactsContext): VersionCompaction {
  const from = semantics.settingsFrom(factsConfigs(context), cwd || process.cwd(), context.trusted);
  try {
    return { compaction: semantics.resolveCompactionSettings(from, model ? `${model.provider}/${model.modelId}` : undefined).settings };
  } catch (error) {
    return { compaction: semantics.fallbackCompactionSettings(from), settingsError: error instanceof Error ? error.message : String(error) };
  }
}

/** The facts of a session not opened, from its catalogue row (no session read). */
export function factsFromRow(row: CatalogueRow, context: FactsContext, cache: RowCompactionCache = new Map()): SessionFacts {
  // The catalogue counted the row with this version (the same choice: setting, else its marker, else installed pi).
  const choice = choosePiVersion({ explicit: context.piVersion, explicitFrom: "the piSessions.piVersion setting", marker: row.pi1xMarker });
  const owner = sessionAgent(row.path, row.agent === "omp" ? "omp's marks in the file" : undefined, context.ompSessionsRoot);
  const semantics = semanticsOf(owner.agent, choice.version);
  const key = `${formatAgentVersion(semantics.agent)}\0${row.cwd}\0${row.model ? `${row.model.provider}/${row.model.modelId}` : ""}`;
  let resolved = cache.get(key);
  if (!resolved) cache.set(key, (resolved = versionCompaction(semantics, row.cwd, row.model, context)));
  const { compaction, settingsError } = resolved;
  const contextWindow = row.model ? context.contextWindow(row.model) : undefined;
  const usage: ContextUsage = { tokens: row.contextTokens, source: row.contextSource, messageCount: row.contextMessages };
  const limits = thresholdOf(semantics, contextWindow, compaction);
  const name = rowTitle(row, semantics);
  return {
    path: row.path,
    title: oneLine(name ?? (row.firstUserMessage?.trim() ? row.firstUserMessage : null) ?? basename(row.path), 80),
    name,
    agent: owner.agent,
    ...(owner.reason ? { agentReason: owner.reason } : {}),
    entryCount: row.entries,
    leafId: null,
    usage,
    model: row.model,
    contextWindow,
    compaction,
    wouldCompact: limits.wouldCompact(usage.tokens),
    threshold: limits.threshold,
    hasCompaction: row.hasCompactions,
    needsMigration: false,
    headerMissing: false,
    problems: 0,
    lastActivity: new Date(lastActivityMs(row.newestEntry, row.mtimeMs)),
    messageCount: row.messages,
    sizeBytes: row.size,
    totals: { tokens: row.totalTokens, cost: row.cost },
    piVersion: choice.version,
    piVersionReason: choice.reason,
    ...(settingsError !== undefined ? { settingsError } : {}),
  };
}

/** Whose session an opened file is, for the writers: omp's marks, else omp's folder (when omp discovery is on). */
export function writerAgentFor(session: LoadedSession, ompSessionsRoot: string | undefined): AgentName {
  return sessionAgent(session.path ?? "", sessionOmpMarker(session)?.what, ompSessionsRoot).agent;
}

/** The session's name by its agent's rule (pi: its last session_info; omp: its title slot, else the header's title), or null. */
export function sessionNameOf(session: LoadedSession, agent: AgentName): string | null {
  return semanticsOf(agent, "0.73").sessionName({ sessionInfoName: session.index.sessionName, titleSlot: session.titleSlot ?? null, header: session.header ?? null });
}
