// What a command is called with: nothing (palette), a tree node (menus), or an
// options object (other extensions, tests) — normalised into one shape so every
// quick pick can be skipped by passing its answer.
import * as vscode from "vscode";

export type NavigateSummaryChoice = "none" | "summarize" | "focus";

export interface CommandArgs {
  sessionPath?: string;
  entryId?: string;
  /** A preset name, "current", or "digest" for the digest (no model). */
  preset?: string;
  /** "provider/id": this model. */
  model?: string;
  digest?: boolean;
  /** Focus text for the summary; "" for none (skips the input box). */
  focus?: string;
  /** false: write without the preview step (piSessions.compaction.confirm). */
  confirm?: boolean;
  /** Navigate: pi's choice of no summary, a summary, or a summary with focus text. */
  summary?: NavigateSummaryChoice;
  label?: string;
  /** Set API Key: the provider (and, for scripts, the key itself; never logged). */
  provider?: string;
  key?: string;
  /** Cancels the work like the progress notification's Cancel button. */
  token?: vscode.CancellationToken;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

const STRING_KEYS = ["sessionPath", "entryId", "preset", "model", "focus", "label", "provider", "key"] as const;

export function commandArgs(raw: unknown): CommandArgs {
  if (!isRecord(raw)) return {};
  const args: CommandArgs = {};
  // Tree nodes: a session row has `path`, an entry row `sessionPath` + `entryId`.
  if (raw.kind === "session" && typeof raw.path === "string") args.sessionPath = raw.path;
  for (const key of STRING_KEYS) if (typeof raw[key] === "string") args[key] = raw[key];
  if (typeof raw.digest === "boolean") args.digest = raw.digest;
  if (typeof raw.confirm === "boolean") args.confirm = raw.confirm;
  if (raw.summary === "none" || raw.summary === "summarize" || raw.summary === "focus") args.summary = raw.summary;
  if (isRecord(raw.token) && typeof raw.token.onCancellationRequested === "function") args.token = raw.token as unknown as vscode.CancellationToken;
  return args;
}
