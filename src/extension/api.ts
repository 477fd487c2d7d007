// The API other extensions get from `vscode.extensions.getExtension("pi-sessions.pi-sessions").exports`
// (what activate() returns). The hooks are pi's extension events for summaries
// (session_before_compact, session_before_tree, session_compact, session_tree):
// a before-hook may cancel the run or supply the summary itself; every
// compaction and branch summary the extension runs goes through them.
import type * as vscode from "vscode";
import type {
  BeforeBranchSummaryEvent,
  BeforeBranchSummaryResult,
  BeforeCompactEvent,
  BeforeCompactResult,
} from "../core/hooks/hook-events";
import type { BranchSummaryEntry, CompactionEntry } from "../core/session/format/types";
import type { EntriesTreeProvider } from "./views/entries-view";
import type { SessionsTreeProvider } from "./views/sessions-view";

export type { BeforeBranchSummaryEvent, BeforeBranchSummaryResult, BeforeCompactEvent, BeforeCompactResult };

/** A before-hook's answer: nothing (no opinion), `{cancel: true}`, or a summary to write instead of the model's. */
export type HookAnswer<R> = R | undefined | void;

export type BeforeCompactHandler = (event: BeforeCompactEvent) => HookAnswer<BeforeCompactResult> | Promise<HookAnswer<BeforeCompactResult>>;
export type BeforeBranchSummaryHandler = (
  event: BeforeBranchSummaryEvent,
) => HookAnswer<BeforeBranchSummaryResult> | Promise<HookAnswer<BeforeBranchSummaryResult>>;

export interface DidCompactEvent {
  sessionPath: string;
  /** The entry as written. */
  entry: CompactionEntry;
  /** "provider/id", "digest", or "hook". */
  model: string;
  tokensBefore: number;
  tokensAfter: number | null;
}

export interface DidBranchSummaryEvent {
  sessionPath: string;
  /** The entry as written; null when there was nothing to summarise (the leaf just moved). */
  entry: BranchSummaryEntry | null;
  newLeafId: string | null;
  oldLeafId: string | null;
  model: string | null;
}

export interface PiSessionsApi {
  /** The "Pi Sessions" log channel. */
  readonly log: vscode.LogOutputChannel;
  readonly sessions: SessionsTreeProvider;
  readonly entries: EntriesTreeProvider;
  /** Looks for session files again and re-reads changed ones. */
  refresh(): Promise<void>;
  /** Runs before every compaction; handlers run in registration order, the last summary wins, a cancel stops at once. */
  onBeforeCompact(handler: BeforeCompactHandler, label?: string): vscode.Disposable;
  /** Runs before every branch summary (navigate with a summary). */
  onBeforeBranchSummary(handler: BeforeBranchSummaryHandler, label?: string): vscode.Disposable;
  /** After a compaction entry was written. */
  readonly onDidCompact: vscode.Event<DidCompactEvent>;
  /** After a branch summary was written (or the leaf moved without one). */
  readonly onDidBranchSummary: vscode.Event<DidBranchSummaryEvent>;
}
