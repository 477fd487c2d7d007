// One session reader: a WebviewPanel of view type piSessions.reader showing a
// branch of a session in pages (ReaderPager), following pi's appends, and
// answering the page's messages through routeReaderMessage.
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { performance } from "node:perf_hooks";
import * as vscode from "vscode";
import { basename } from "node:path";
import { leafBelow, PAGE_BLOCKS, ReaderPager, tailBlocks, type TailBlocks } from "../../core/reader";
import type { LoadedSession } from "../../core/session/open/open-session";
import { showBidiControls } from "../../core/text/bidi-controls";
import { READER_LIMITS, READER_STATE_VERSION, type ReaderFilter, type ReaderHostMessage, type ReaderState } from "../../webview/reader-protocol";
import { panelDocument } from "../panel-document";
import { toolCallFile } from "./reader-files";
import { routeReaderMessage, type ReaderMessageTarget, type ReaderRouteResult, type ToolCallFile } from "./reader-router";
import { counted } from "../../core/text/counted";

export const READER_VIEW_TYPE = "piSessions.reader";

/** How long indexing a session not read yet waits for the page to show the file's tail first. */
export const FIRST_PAINT_WAIT_MS = 1500;

export interface ReaderHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  session(path: string): Promise<LoadedSession>;
  /** Whether the session is read already (else the reader shows the file's tail while it is indexed). */
  isRead(path: string): boolean;
  /** The session's title: its listed row's, else (once read) its name, else the file's name. */
  title(path: string, session?: LoadedSession): string;
  revealEntry(sessionPath: string, entryId: string): Promise<void>;
  confirmOutside(file: ToolCallFile): Promise<boolean>;
  workspaceRoots(): string[];
  closed(panel: ReaderPanel): void;
}

export interface ReaderTarget {
  sessionPath: string;
  /** Show the branch through this entry and scroll to it (else: the session's current branch, its end). */
  entryId?: string;
  filter: ReaderFilter;
}

export function readerPanelTitle(title: string): string {
  const flat = showBidiControls(title.replace(/\s+/g, " ").trim()) || "Session";
  return flat.length > 40 ? `${flat.slice(0, 39)}…` : flat;
}

export class ReaderPanel implements ReaderMessageTarget {
  private current: ReaderState;
  private pager: ReaderPager | undefined;
  private sessionNow: LoadedSession | undefined;
  private loading: Promise<void>;
  private focusId: string | undefined;

  /** The entry the reader was last asked to show (opened at, or scrolled to). */
  get shownEntry(): string | undefined {
    return this.focusId;
  }
  /** The file's last entries, shown until the index is built (a session not read yet). */
  private provisional: TailBlocks | undefined;
  /** First block index the page has (what an earlier page ends before). */
  private loadedStart = 0;
  private openedAt = performance.now();
  private disposed = false;
  private readonly subscriptions: vscode.Disposable[] = [];
  private readonly routed: string[] = [];
  private readonly postedTypes: string[] = [];
  /** ms from opening (or retargeting) to the page reporting the first page rendered. */
  firstShownMs: number | undefined;
  /** A preview reader: the next session row click shows its session here instead of opening another tab. */
  preview: boolean;
  private shownWaiters: (() => void)[] = [];

  constructor(
    readonly webviewPanel: vscode.WebviewPanel,
    target: ReaderTarget,
    private readonly host: ReaderHost,
    options: { preview: boolean; leafId?: string | null; follow?: boolean },
  ) {
    this.preview = options.preview;
    this.current = { version: READER_STATE_VERSION, sessionPath: target.sessionPath, title: "", leafId: options.leafId ?? null, follow: options.follow ?? true, filter: target.filter };
    this.focusId = target.entryId;
    const webview = webviewPanel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, "dist"), vscode.Uri.joinPath(host.extensionUri, "media")] };
    webviewPanel.iconPath = vscode.Uri.joinPath(host.extensionUri, "media", "pi-sessions.svg");
    webviewPanel.title = "Session";
    this.subscriptions.push(
      webview.onDidReceiveMessage((message: unknown) => void this.receive(message, "webview")),
      webviewPanel.onDidDispose(() => this.closedNow()),
    );
    this.loading = this.load(target, options.leafId !== undefined && !options.follow ? options.leafId : undefined);
    webview.html = this.html();
  }

  static create(host: ReaderHost, target: ReaderTarget, preview: boolean): ReaderPanel {
    const webviewPanel = vscode.window.createWebviewPanel(
      READER_VIEW_TYPE,
      "Session",
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: preview },
      { enableScripts: true, enableFindWidget: true, retainContextWhenHidden: false },
    );
    return new ReaderPanel(webviewPanel, target, host, { preview });
  }

  get sessionPath(): string {
    return this.current.sessionPath;
  }

  get state(): ReaderState {
    return this.current;
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  /** Shows another session (or branch) in this panel. */
  retarget(target: ReaderTarget): void {
    this.openedAt = performance.now();
    this.firstShownMs = undefined;
    this.focusId = target.entryId;
    this.current = { ...this.current, sessionPath: target.sessionPath, filter: target.filter, follow: true, leafId: null };
    this.loading = this.load(target, undefined);
    this.sendInit();
  }

  setFilter(filter: ReaderFilter): void {
    if (filter === this.current.filter) return;
    this.current = { ...this.current, filter };
    if (!this.sessionNow) return;
    this.pager = new ReaderPager(this.sessionNow, this.current.leafId, filter);
    this.sendInit();
  }

  /** The Entries view selected an entry: scroll to it when it is on the shown branch. */
  async revealInPage(entryId: string): Promise<boolean> {
    await this.loading;
    const pager = this.pager;
    if (!pager) return false;
    const at = pager.indexOf(entryId);
    if (at < 0) return false;
    while (this.loadedStart > at) {
      const from = Math.max(at, this.loadedStart - READER_LIMITS.blocksPerMessage);
      this.post({ type: "earlier", blocks: pager.blocks(from, this.loadedStart), start: from });
      this.loadedStart = from;
    }
    this.post({ type: "reveal", entryId });
    this.focusId = entryId;
    return true;
  }

  /** The session file changed (store event). */
  sessionChanged(change: string, session: LoadedSession | undefined): void {
    if (!session) {
      this.post({ type: "notice", text: "The session file is gone: this is what it held when last read." });
      return;
    }
    void this.loading.then(() => {
      if (!this.pager || this.disposed) return;
      // The store opening the session this reader just loaded (or a read finding nothing new): the page is up to date.
      if ((change === "opened" || change === "unchanged") && session === this.sessionNow) return;
      const extension = change === "appended" ? this.pager.extend(session, this.current.follow) : undefined;
      this.sessionNow = session;
      if (!extension) {
        this.pager = new ReaderPager(session, this.current.follow ? session.index.leafId : this.current.leafId, this.current.filter);
        this.current = { ...this.current, leafId: this.pager.leafId };
        this.sendInit();
        return;
      }
      this.current = { ...this.current, leafId: this.pager.leafId };
      if (extension.appended.length > 0) this.post({ type: "append", blocks: extension.appended, total: this.pager.total, inFile: session.index.size });
      if (extension.changed.length > 0) this.post({ type: "changed", blocks: extension.changed });
    });
  }

  async receive(message: unknown, origin: "webview" | "test"): Promise<ReaderRouteResult> {
    let result: ReaderRouteResult;
    try {
      result = await routeReaderMessage(message, this);
      if (!result.done) this.host.log.warn(`reader: refused a message (${describe(message)}): ${result.reason}`);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.host.log.error(`reader: ${describe(message)} failed: ${text}`);
      void vscode.window.showErrorMessage(`Pi Sessions: ${text}`);
      result = { done: false, reason: text };
    }
    this.routed.push(`${origin} ${describe(message)}: ${result.done ? result.action : `refused (${result.reason})`}`);
    if (this.routed.length > 100) this.routed.shift();
    return result;
  }

  routedMessages(): string[] {
    return [...this.routed];
  }

  /** Types of the messages posted to the page, oldest first (the last 200). */
  postedMessages(): string[] {
    return [...this.postedTypes];
  }

  reveal(preserveFocus: boolean): void {
    this.webviewPanel.reveal(undefined, preserveFocus);
  }

  dispose(): void {
    this.webviewPanel.dispose();
  }

  // ReaderMessageTarget

  sendInit(anchorId?: string): void {
    if (anchorId !== undefined) this.host.log.info(`reader: the page reloaded, back to entry ${anchorId}`);
    const provisional = this.provisional;
    if (!this.pager && provisional && anchorId !== undefined) {
      // A reloaded page goes back to its place, not to the file's tail: index at once.
      this.provisional = undefined;
      for (const waiter of this.shownWaiters.splice(0)) waiter();
    } else if (!this.pager && provisional) {
      // The tail's leaf is the one the page shows until the index arrives (then load() sets it again).
      this.current = { ...this.current, leafId: provisional.leafId };
      this.post({ type: "init", state: { ...this.current, title: this.current.title || basename(this.sessionPath) }, blocks: provisional.blocks, start: 0, total: provisional.blocks.length });
    }
    void this.loading.then(() => {
      this.provisional = undefined;
      const pager = this.pager;
      if (!pager || this.disposed) return;
      let end = pager.total;
      const focusAt = this.focusId !== undefined ? pager.indexOf(this.focusId) : -1;
      // A reloaded page goes back to where it was scrolled: the page must hold that entry too.
      const anchorAt = focusAt < 0 && anchorId !== undefined ? pager.indexOf(anchorId) : -1;
      const keepAt = focusAt >= 0 ? focusAt : anchorAt;
      // A focused entry far from the end: the page runs from it on.
      if (keepAt >= 0) end = Math.max(keepAt + 1, Math.min(pager.total, keepAt + 20));
      const page = pager.pageBefore(end);
      const blocks = end < pager.total ? [...page.blocks, ...pager.blocks(end, pager.total)] : page.blocks;
      this.loadedStart = page.start;
      this.post({ type: "init", state: this.current, blocks: blocks.slice(0, READER_LIMITS.blocksPerMessage), start: page.start, total: pager.total, ...(this.sessionNow ? { inFile: this.sessionNow.index.size } : {}), ...(focusAt >= 0 ? { focusId: this.focusId } : {}) });
    });
  }

  sendEarlier(before: number): boolean {
    const pager = this.pager;
    if (!pager || before === 0 || before !== this.loadedStart) return false;
    const page = pager.pageBefore(before);
    this.loadedStart = page.start;
    this.post({ type: "earlier", blocks: page.blocks, start: page.start });
    return true;
  }

  /** Resolves when the page reports its first page rendered, or after `maxMs`. */
  whenShown(maxMs: number): Promise<void> {
    if (this.firstShownMs !== undefined) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, maxMs);
      this.shownWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  shown(blocks: number): void {
    for (const waiter of this.shownWaiters.splice(0)) waiter();
    if (this.firstShownMs !== undefined) return;
    this.firstShownMs = performance.now() - this.openedAt;
    this.host.log.info(`reader: ${counted(blocks, "entry")} of ${this.sessionPath} shown ${this.firstShownMs.toFixed(0)} ms after opening`);
  }

  hasEntry(entryId: string): boolean {
    return this.sessionNow?.index.get(entryId) !== undefined;
  }

  revealEntry(entryId: string): Promise<void> {
    return this.host.revealEntry(this.sessionPath, entryId);
  }

  toolCallFile(entryId: string, toolCallId: string): ToolCallFile | undefined {
    if (!this.sessionNow) return undefined;
    return toolCallFile(this.sessionNow, entryId, toolCallId, { workspaceRoots: this.host.workspaceRoots(), homeDir: homedir() });
  }

  confirmOutside(file: ToolCallFile): Promise<boolean> {
    return this.host.confirmOutside(file);
  }

  async openFile(path: string, preview: boolean): Promise<boolean> {
    if (!existsSync(path)) {
      void vscode.window.showWarningMessage(`Pi Sessions: ${showBidiControls(path)} does not exist.`);
      return false;
    }
    const own = this.webviewPanel.viewColumn;
    const other = vscode.window.tabGroups.all.find((group) => group.viewColumn !== own);
    await vscode.commands.executeCommand("vscode.open", vscode.Uri.file(path), { preview, viewColumn: other?.viewColumn ?? vscode.ViewColumn.Beside });
    return true;
  }

  private async load(target: ReaderTarget, fixedLeaf: string | null | undefined): Promise<void> {
    this.pager = undefined;
    this.provisional = undefined;
    // The tab's title at once, from the session's listed row (a big session is indexed later).
    this.current = { ...this.current, title: this.host.title(target.sessionPath) };
    this.webviewPanel.title = readerPanelTitle(this.current.title);
    try {
      if (fixedLeaf === undefined && !target.entryId && !this.host.isRead(target.sessionPath)) {
        this.provisional = tailBlocks(target.sessionPath, target.filter, PAGE_BLOCKS);
        // The page shows the tail first; indexing the whole file (seconds for 100 MB) waits for that.
        await this.whenShown(FIRST_PAINT_WAIT_MS);
      }
      const session = await this.host.session(target.sessionPath);
      if (this.current.sessionPath !== target.sessionPath) return;
      this.sessionNow = session;
      let leaf: string | null = fixedLeaf !== undefined ? fixedLeaf : session.index.leafId;
      let follow = fixedLeaf === undefined;
      if (fixedLeaf === undefined && target.entryId && session.index.get(target.entryId)) {
        const onCurrent = leaf !== null && session.index.pathIds(leaf).includes(target.entryId);
        if (!onCurrent) {
          leaf = leafBelow(session, target.entryId);
          follow = false;
        }
      }
      if (leaf !== null && !session.index.get(leaf)) leaf = session.index.leafId;
      this.pager = new ReaderPager(session, leaf, this.current.filter);
      this.current = { ...this.current, leafId: leaf, follow, title: this.host.title(target.sessionPath, session) };
      this.webviewPanel.title = readerPanelTitle(this.current.title);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.host.log.error(`reader: ${text}`);
      this.post({ type: "notice", text });
    }
  }

  private post(message: ReaderHostMessage): void {
    if (this.disposed) return;
    this.postedTypes.push(message.type);
    if (this.postedTypes.length > 200) this.postedTypes.shift();
    void this.webviewPanel.webview.postMessage(message).then(undefined, () => undefined);
  }

  private html(): string {
    return panelDocument(this.webviewPanel.webview, this.host.extensionUri, { script: "reader.js", styles: ["webview.css", "reader.css"], title: "Session" });
  }

  private closedNow(): void {
    this.disposed = true;
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
    this.host.closed(this);
  }
}

function describe(message: unknown): string {
  const type = typeof message === "object" && message !== null ? (message as { type?: unknown }).type : undefined;
  return typeof type === "string" ? JSON.stringify(type.slice(0, 40)) : "a message without a type";
}
