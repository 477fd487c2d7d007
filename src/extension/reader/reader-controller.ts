// The session readers of the window: opens them (a preview reader that
// session-row clicks reuse, like VS Code's preview editor, and pinned ones),
// keeps them live with the session store, follows the Entries view's
// selection and filter, and restores them after a reload.
import * as vscode from "vscode";
import { isReaderFilter, type ReaderFilter } from "../../core/reader";
import type { LoadedSession } from "../../core/session/open/open-session";
import { showBidiControls } from "../../core/text/bidi-controls";
import { isPersistedReaderState } from "../../webview/reader-protocol";
import type { SessionStore } from "../session-store";
import { ReaderPanel, type ReaderHost } from "./reader-panel";
import type { ReaderRouteResult, ToolCallFile } from "./reader-router";

export interface ReaderDeps {
  log: vscode.LogOutputChannel;
  store: SessionStore;
  /** The session's title: its listed row's, else (once read) its name, else the file's name. */
  title(path: string, session?: LoadedSession): string;
  revealEntry(sessionPath: string, entryId: string): Promise<void>;
  workspaceRoots(): string[];
  /** The Entries view's filter (the reader shows the same entries). */
  filter(): ReaderFilter;
}

export interface ReaderSnapshot {
  webviewPanel: vscode.WebviewPanel;
  sessionPath: string;
  leafId: string | null;
  follow: boolean;
  filter: ReaderFilter;
  preview: boolean;
  /** The entry it was last asked to show (opened at, or scrolled to). */
  shownEntry: string | undefined;
  firstShownMs: number | undefined;
  /** Types of the messages posted to the page, oldest first. */
  posted: string[];
  routed: string[];
}

export interface ReaderTesting {
  panels(): ReaderSnapshot[];
  post(message: unknown, index?: number): Promise<ReaderRouteResult>;
  setConfirmOutside(answer: ((file: ToolCallFile) => Promise<boolean>) | undefined): void;
}

async function askBeforeOpening(file: ToolCallFile): Promise<boolean> {
  const answer = await vscode.window.showWarningMessage(
    `${showBidiControls(file.path ?? file.given)} is outside the workspace and the session's folder. Open it?`,
    { modal: true },
    "Open",
  );
  return answer === "Open";
}

export class ReaderController implements vscode.Disposable {
  private readonly panels: ReaderPanel[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private confirmOverride: ((file: ToolCallFile) => Promise<boolean>) | undefined;
  private readonly host: ReaderHost;
  readonly testing: ReaderTesting;

  constructor(extensionUri: vscode.Uri, private readonly deps: ReaderDeps) {
    this.host = {
      extensionUri,
      log: deps.log,
      session: (path) => deps.store.get(path),
      isRead: (path) => deps.store.peek(path) !== undefined,
      title: (path, session) => deps.title(path, session),
      revealEntry: (path, id) => deps.revealEntry(path, id),
      confirmOutside: (file) => (this.confirmOverride ?? askBeforeOpening)(file),
      workspaceRoots: () => deps.workspaceRoots(),
      closed: (panel) => this.forget(panel),
    };
    this.subscriptions.push(
      deps.store.onDidChange(({ path, change, session }) => {
        for (const panel of this.panels) if (panel.sessionPath === path) panel.sessionChanged(change, session);
      }),
    );
    this.testing = {
      panels: () =>
        this.panels.map((panel) => ({
          webviewPanel: panel.webviewPanel,
          sessionPath: panel.sessionPath,
          leafId: panel.state.leafId,
          follow: panel.state.follow,
          filter: panel.state.filter,
          preview: panel.preview,
          shownEntry: panel.shownEntry,
          firstShownMs: panel.firstShownMs,
          posted: panel.postedMessages(),
          routed: panel.routedMessages(),
        })),
      post: (message, index) => {
        const panel = index === undefined ? this.panels[this.panels.length - 1] : this.panels[index];
        if (!panel) throw new Error("no reader is open");
        return panel.receive(message, "test");
      },
      setConfirmOutside: (answer) => {
        this.confirmOverride = answer;
      },
    };
  }

  /**
   * Opens the reader on a session (scrolled to `entryId` when given). `preview`:
   * a session row's click — reuse the preview reader and keep the focus in the tree.
   */
  async open(sessionPath: string, entryId: string | undefined, preview: boolean): Promise<ReaderPanel> {
    const target = { sessionPath, filter: this.deps.filter(), ...(entryId ? { entryId } : {}) };
    const existing = this.panels.find((panel) => panel.sessionPath === sessionPath);
    if (existing) {
      if (!preview) existing.preview = false;
      existing.reveal(preview);
      if (entryId && !(await existing.revealInPage(entryId))) existing.retarget(target);
      return existing;
    }
    const reusable = preview ? this.panels.find((panel) => panel.preview) : undefined;
    if (reusable) {
      reusable.retarget(target);
      reusable.reveal(true);
      return reusable;
    }
    const panel = ReaderPanel.create(this.host, target, preview);
    this.panels.push(panel);
    return panel;
  }

  /** Whether the store has read the session already (else the reader shows the file's tail first). */
  isRead(sessionPath: string): boolean {
    return this.deps.store.peek(sessionPath) !== undefined;
  }

  entryCount(sessionPath: string): number {
    return this.deps.store.peek(sessionPath)?.index.size ?? 0;
  }

  /** An entry selected in the Entries view: readers of its session scroll to it. */
  entrySelected(sessionPath: string, entryId: string): void {
    for (const panel of this.panels) if (panel.sessionPath === sessionPath) void panel.revealInPage(entryId);
  }

  filterChanged(filter: ReaderFilter): void {
    for (const panel of this.panels) panel.setFilter(filter);
  }

  /** WebviewPanelSerializer: a reader VS Code restores after a reload. */
  async restore(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    if (!isPersistedReaderState(saved)) {
      this.deps.log.warn("reader: the saved state of a restored reader is not valid; closing it");
      webviewPanel.dispose();
      return;
    }
    const state = saved.reader;
    const filter = isReaderFilter(state.filter) ? state.filter : this.deps.filter();
    const panel = new ReaderPanel(webviewPanel, { sessionPath: state.sessionPath, filter }, this.host, {
      preview: false,
      leafId: state.leafId,
      follow: state.follow,
    });
    this.panels.push(panel);
    this.deps.log.info(`reader restored (${state.sessionPath})`);
  }

  dispose(): void {
    for (const panel of [...this.panels]) panel.dispose();
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  private forget(panel: ReaderPanel): void {
    const at = this.panels.indexOf(panel);
    if (at >= 0) this.panels.splice(at, 1);
  }
}
