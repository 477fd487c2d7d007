// The summary panel's seam with the rest of the extension (tree nodes,
// commands, the compaction / branch-summary runners' confirm step).
import type { PiVersion } from "../../core/agent";
import type * as vscode from "vscode";
import type { LoadedSession } from "../../core/session/open/open-session";
import type { SummaryFile, SummaryKind, SummaryPanelState } from "../../webview/protocol";
import type { SummaryExtras } from "./build-panel-state";
import type { RouteResult } from "./message-router";
import type { PanelPhase } from "./summary-panel";

export interface SummaryPanelDeps {
  log: vscode.LogOutputChannel;
  /** Reveal an entry in the Entries view (the panel's entry links). */
  revealEntry(sessionPath: string, entryId: string): Promise<void>;
  /** What the session did to a file (Session Changes to This File). */
  showChanges(sessionPath: string, path: string): Promise<void>;
  /** A deleted file: its last content the session holds (or why there is none). */
  showLastContent(sessionPath: string, path: string): Promise<void>;
  /** Workspace trust: untrusted → previews cannot be applied. */
  isTrusted(): boolean;
  /** Absolute paths of the workspace folders (files elsewhere ask before opening). */
  workspaceRoots(): string[];
  /** The piSessions.piVersion setting (undefined: automatic per session). */
  piVersion?(): PiVersion | undefined;
}

/** What a runner's `confirm` callback is given, plus the session and kind. */
export interface SummaryProposal {
  session: LoadedSession;
  kind: SummaryKind;
  /** The proposed entry as the runner would write it. */
  entry: object;
  tokensBefore?: number;
  tokensAfter?: number | null;
  model: string;
}

export interface PanelSnapshot {
  webviewPanel: vscode.WebviewPanel;
  state: SummaryPanelState;
  phase: PanelPhase;
  /** The last messages routed, oldest first, e.g. `webview "ready": init` (the page loaded and asked for its state). */
  routed: string[];
}

/** For tests in the extension host: the same validated router the webview's messages go through. */
export interface SummaryPanelTesting {
  /** Open panels, oldest first. */
  panels(): PanelSnapshot[];
  /** Routes `message` as if the page of panel `index` (default: the newest) had posted it. */
  post(message: unknown, index?: number): Promise<RouteResult>;
  /** Replaces the modal question before opening files outside the workspace (undefined: the real modal). */
  setConfirmOutside(answer: ((files: readonly SummaryFile[]) => Promise<boolean>) | undefined): void;
}

export interface SummaryPanelController {
  /** View an existing compaction or branch_summary entry (throws for any other id). */
  showEntry(session: LoadedSession, entryId: string): Promise<void>;
  /** The proposed summary, editable: the (edited) text on Apply; null on Discard or when the panel closes. */
  preview(proposal: SummaryProposal): Promise<string | null>;
  /** After the write: the preview that was applied switches to the written entry; otherwise a panel opens on it. */
  showResult(session: LoadedSession, entry: object, extras: SummaryExtras): Promise<void>;
  /** The write after Apply failed (nothing written): the preview shows the error and can no longer be applied. */
  applyFailed(sessionPath: string, error: string): void;
  readonly testing: SummaryPanelTesting;
}
