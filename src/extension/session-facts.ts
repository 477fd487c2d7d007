// What a list row and the status bar say about one session: its title, size,
// context tokens against the model's window, and whether pi would auto-compact.
// No vscode here: plain data from the core.
import { basename } from "node:path";
import type { LoadedSession } from "../core/session/open-session";
import { firstUserMessageText, recordedCwd, sessionModifiedDate } from "../core/session/session-info";
import { resolveCompactionSettings, type CompactionSettings, type SettingsObject } from "../core/settings";
import { sessionModel, type SessionModelRef } from "../core/summarize/session-model";
import { shouldCompact, type ContextUsage } from "../core/tokens";
import { choosePiVersion, semanticsFor, type PiVersion } from "../core/pi-version";
import { oneLine } from "../core/tree/preview";

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
  modified: Date;
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
  contextWindow(model: SessionModelRef): number | undefined;
}

export function sessionFacts(session: LoadedSession, context: FactsContext, mtime?: Date): SessionFacts {
  const path = session.path ?? "";
  const name = session.index.sessionName ?? null;
  const title = oneLine(name ?? firstUserMessageText(session, { skipBlank: true }) ?? basename(path), 80);
  const pathEntries = session.pathTo();
  const choice = choosePiVersion({ explicit: context.piVersion, explicitFrom: "the piSessions.piVersion setting", session });
  const semantics = semanticsFor(choice.version);
  const usage = semantics.contextUsage(pathEntries);
  const model = sessionModel(pathEntries).model;
  const contextWindow = model ? context.contextWindow(model) : undefined;
  const cwd = recordedCwd(session) ?? process.cwd();
  const settingsInput = { agentDir: context.agentDir, cwd, trustProject: context.trusted, overrides: context.overrides };
  let compaction: CompactionSettings;
  let settingsError: string | undefined;
  try {
    compaction = semantics.resolveCompactionSettings(settingsInput, model ? `${model.provider}/${model.modelId}` : undefined).settings;
  } catch (error) {
    settingsError = error instanceof Error ? error.message : String(error);
    compaction = resolveCompactionSettings(settingsInput).settings;
  }
  const wouldCompact = contextWindow !== undefined && shouldCompact(usage.tokens, contextWindow, compaction);
  return {
    path,
    title,
    name,
    entryCount: session.index.size,
    leafId: session.index.leafId,
    usage,
    model,
    contextWindow,
    compaction,
    wouldCompact,
    threshold: contextWindow !== undefined ? contextWindow - compaction.reserveTokens : undefined,
    hasCompaction: pathEntries.some((e) => e.type === "compaction"),
    needsMigration: session.needsMigration,
    headerMissing: session.headerMissing,
    problems: session.diagnostics.length,
    modified: sessionModifiedDate(session, () => mtime ?? new Date(0)),
    piVersion: choice.version,
    piVersionReason: choice.reason,
    ...(settingsError !== undefined ? { settingsError } : {}),
  };
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
