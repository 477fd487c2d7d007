// One summary panel: a WebviewPanel of view type piSessions.summary, the
// state it shows, and (for a preview) the runner waiting for Apply or
// Discard. Messages from the page go through routeWebviewMessage.
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import * as vscode from "vscode";
import type { SummaryFile, SummaryPanelState } from "../../webview/protocol";
import type { HostMessage } from "../../webview/protocol";
import { panelDocument } from "../panel-document";
import { routeWebviewMessage, type PanelMessageTarget, type RouteResult } from "./message-router";
import { withOpenMarks } from "./panel-files";

export const SUMMARY_VIEW_TYPE = "piSessions.summary";

/**
 * view: shows an entry of the file. awaiting: a preview whose runner waits for
 * Apply/Discard. applying: Apply was answered, the runner is writing.
 * detached: a preview nothing waits for (restored after a reload, or its run failed).
 */
export type PanelPhase = "view" | "awaiting" | "applying" | "detached";

export interface PanelHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  revealEntry(sessionPath: string, entryId: string): Promise<void>;
  showChanges(sessionPath: string, path: string): Promise<void>;
  showLastContent(sessionPath: string, path: string): Promise<void>;
  confirmOutside(files: readonly SummaryFile[]): Promise<boolean>;
  panelClosed(panel: SummaryPanel): void;
}

export function panelTitle(state: SummaryPanelState): string {
  const what = state.kind === "compaction" ? "Compaction summary" : "Branch summary";
  return state.mode === "preview" ? `Preview: ${what.toLowerCase()}` : what;
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, "dist"), vscode.Uri.joinPath(extensionUri, "media")],
  };
}

export class SummaryPanel implements PanelMessageTarget {
  private current: SummaryPanelState;
  private phaseNow: PanelPhase;
  private waiter: ((text: string | null) => void) | undefined;
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  /** The last messages routed and what came of them (logged, and read by the host tests). */
  private readonly routed: string[] = [];

  constructor(
    readonly webviewPanel: vscode.WebviewPanel,
    state: SummaryPanelState,
    phase: PanelPhase,
    private readonly host: PanelHost,
    waiter?: (text: string | null) => void,
  ) {
    this.current = state;
    this.phaseNow = phase;
    this.waiter = waiter;
    const webview = webviewPanel.webview;
    webview.options = webviewOptions(host.extensionUri);
    webviewPanel.iconPath = vscode.Uri.joinPath(host.extensionUri, "media", "pi-sessions.svg");
    webviewPanel.title = panelTitle(state);
    this.subscriptions.push(
      webview.onDidReceiveMessage((message: unknown) => void this.receive(message, "webview")),
      webviewPanel.onDidDispose(() => this.closed()),
    );
    webview.html = this.html();
  }

  static create(host: PanelHost, state: SummaryPanelState, phase: PanelPhase, waiter?: (text: string | null) => void): SummaryPanel {
    const webviewPanel = vscode.window.createWebviewPanel(
      SUMMARY_VIEW_TYPE,
      panelTitle(state),
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      { ...webviewOptions(host.extensionUri), enableFindWidget: true, retainContextWhenHidden: false },
    );
    return new SummaryPanel(webviewPanel, state, phase, host, waiter);
  }

  get phase(): PanelPhase {
    return this.phaseNow;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  state(): SummaryPanelState {
    return this.current;
  }

  /** A message from the page (or from the test hook): validated and routed. */
  async receive(message: unknown, origin: "webview" | "test"): Promise<RouteResult> {
    let result: RouteResult;
    try {
      result = await routeWebviewMessage(message, this);
      if (!result.done) this.host.log.warn(`summary panel: refused a message (${describe(message)}): ${result.reason}`);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.host.log.error(`summary panel: ${describe(message)} failed: ${text}`);
      void vscode.window.showErrorMessage(`Pi Sessions: ${text}`);
      result = { done: false, reason: text };
    }
    this.routed.push(`${origin} ${describe(message)}: ${result.done ? result.action : `refused (${result.reason})`}`);
    if (this.routed.length > 100) this.routed.shift();
    return result;
  }

  /** What happened to the last messages, oldest first: `webview "ready": init`. */
  routedMessages(): string[] {
    return [...this.routed];
  }

  /** Shows a new state (same panel, e.g. the entry again with fresh marks). */
  update(state: SummaryPanelState, phase: PanelPhase = this.phaseNow): void {
    this.current = state;
    this.phaseNow = phase;
    this.webviewPanel.title = panelTitle(state);
    this.post({ type: "update", state });
  }

  /** The runner wrote the entry this preview proposed: the panel views it. */
  showApplied(state: SummaryPanelState): void {
    if (state.entryId) this.post({ type: "applied", entryId: state.entryId });
    this.update(state, "view");
  }

  /** The runner failed after Apply (nothing written): the preview stays, read-only, with the error. */
  showApplyFailed(error: string, notice: string): void {
    this.post({ type: "applyFailed", error });
    this.update({ ...this.current, readOnly: true, notice }, "detached");
  }

  syncOpenTabs(openPaths: ReadonlySet<string>): void {
    const files = withOpenMarks(this.current.files, openPaths);
    if (files.every((file, i) => file === this.current.files[i])) return;
    this.current = { ...this.current, files };
    this.post({ type: "tabsChanged", openPaths: files.filter((file) => file.open).map((file) => file.path) });
  }

  reveal(): void {
    this.webviewPanel.reveal(undefined, false);
  }

  dispose(): void {
    this.webviewPanel.dispose();
  }

  // PanelMessageTarget

  sendInit(): void {
    this.post({ type: "init", state: this.current });
  }

  async openFile(file: SummaryFile, preview: boolean): Promise<void> {
    if (!isAbsolute(file.path)) {
      void vscode.window.showWarningMessage(`Pi Sessions: cannot open ${file.displayPath}: where it is is not known.`);
      return;
    }
    if (!existsSync(file.path)) {
      // Gone: its last content as the session holds it, or a word on why there is none.
      await this.host.showLastContent(this.current.sessionPath, file.path);
      return;
    }
    await vscode.commands.executeCommand("vscode.open", vscode.Uri.file(file.path), { preview, viewColumn: this.fileColumn() });
  }

  confirmOutside(files: readonly SummaryFile[]): Promise<boolean> {
    return this.host.confirmOutside(files);
  }

  apply(text: string): boolean {
    if (this.phaseNow !== "awaiting" || !this.waiter) return false;
    const answer = this.waiter;
    this.waiter = undefined;
    this.phaseNow = "applying";
    answer(text);
    return true;
  }

  discard(): boolean {
    if (this.phaseNow === "applying") return false;
    this.answer(null);
    this.dispose();
    return true;
  }

  async copyMarkdown(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
    vscode.window.setStatusBarMessage("Pi Sessions: summary copied as markdown", 3000);
  }

  revealEntry(entryId: string): Promise<void> {
    return this.host.revealEntry(this.current.sessionPath, entryId);
  }

  showLastContent(file: SummaryFile): Promise<void> {
    return this.host.showLastContent(this.current.sessionPath, file.path);
  }

  showChanges(file: SummaryFile): Promise<void> {
    return this.host.showChanges(this.current.sessionPath, file.path);
  }

  private answer(text: string | null): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(text);
  }

  /** Files open beside the panel: in another editor group when there is one, else a new group to the side. */
  private fileColumn(): vscode.ViewColumn {
    const own = this.webviewPanel.viewColumn;
    const other = vscode.window.tabGroups.all.find((group) => group.viewColumn !== own);
    return other?.viewColumn ?? vscode.ViewColumn.Beside;
  }

  private post(message: HostMessage): void {
    if (this.disposed) return;
    void this.webviewPanel.webview.postMessage(message).then(undefined, () => undefined);
  }

  private html(): string {
    return panelDocument(this.webviewPanel.webview, this.host.extensionUri, { script: "webview.js", styles: ["webview.css"], title: panelTitle(this.current) });
  }

  private closed(): void {
    this.disposed = true;
    this.answer(null);
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.host.panelClosed(this);
  }
}

function describe(message: unknown): string {
  const type = typeof message === "object" && message !== null ? (message as { type?: unknown }).type : undefined;
  return typeof type === "string" ? JSON.stringify(type.slice(0, 40)) : "a message without a type";
}
