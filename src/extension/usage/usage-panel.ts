// The Usage view: one WebviewPanel (view type piSessions.usage) drawing what
// the listed sessions cost and consumed, from their catalogue rows. Live: the
// Sessions model's change events (a pi write carried into a row, a new
// session) recompute the report from the rows already in memory, at most every
// LIVE_DELAY_MS, and post it while the panel is visible (else when it shows).
import { performance } from "node:perf_hooks";
import * as vscode from "vscode";
import type { CatalogueRow } from "../../core/catalogue/catalogue-row";
import { isUsageWebviewMessage, type UsageHostMessage, type UsageView, type UsageViewOptions } from "../../webview/usage-protocol";
import { panelDocument } from "../panel-document";
import { usageView } from "./usage-view";

export const USAGE_VIEW_TYPE = "piSessions.usage";
export const SHOW_USAGE_COMMAND_ID = "piSessions.showUsage";
const OPTIONS_KEY = "piSessions.usageOptions";
/** pi writes a line per message: a burst of writes is drawn once. */
export const LIVE_DELAY_MS = 250;

export interface UsageHost {
  readonly extensionUri: vscode.Uri;
  readonly log: vscode.LogOutputChannel;
  readonly memento: vscode.Memento;
  /** The catalogue rows of the listed sessions (the Sessions view's scope), read when not yet. */
  rows(): Promise<CatalogueRow[]>;
  scope(): UsageViewOptions["scope"];
  setScope(scope: UsageViewOptions["scope"]): Promise<void>;
  /** The listed sessions or their rows changed. */
  readonly onDidChange: vscode.Event<unknown>;
  openSession(path: string): Thenable<unknown>;
}

/** What one report cost the extension host (for tests and the benchmark). */
export interface UsageMeasure {
  options: UsageViewOptions;
  rows: number;
  /** CPU of the host (user + system) from the request to the posted report, ms. */
  cpuMs: number;
  wallMs: number;
  reason: "open" | "options" | "live";
}

const DEFAULT_OPTIONS: Omit<UsageViewOptions, "scope"> = { period: "30d", stack: "model", rollUp: false };

export class UsagePanel implements vscode.Disposable {
  private static current: UsagePanel | undefined;
  private options: UsageViewOptions;
  private view: UsageView | undefined;
  private ready = false;
  private dirty = false;
  private liveTimer: NodeJS.Timeout | undefined;
  private generation = 0;
  private readonly subscriptions: vscode.Disposable[] = [];
  readonly measures: UsageMeasure[] = [];
  /** What the page asked for and was refused (logged; kept for the host tests). */
  readonly refused: string[] = [];
  /** Reports the page said it drew (days). */
  readonly shown: number[] = [];
  private shownWaiters: (() => void)[] = [];

  private constructor(
    readonly webviewPanel: vscode.WebviewPanel,
    private readonly host: UsageHost,
  ) {
    const saved = host.memento.get<Partial<UsageViewOptions>>(OPTIONS_KEY) ?? {};
    this.options = { ...DEFAULT_OPTIONS, ...pick(saved), scope: host.scope() };
    const webview = webviewPanel.webview;
    webview.options = { enableScripts: true, localResourceRoots: [vscode.Uri.joinPath(host.extensionUri, "dist"), vscode.Uri.joinPath(host.extensionUri, "media")] };
    webviewPanel.iconPath = vscode.Uri.joinPath(host.extensionUri, "media", "pi-sessions.svg");
    this.subscriptions.push(
      webview.onDidReceiveMessage((message: unknown) => void this.receive(message)),
      webviewPanel.onDidDispose(() => this.dispose()),
      webviewPanel.onDidChangeViewState(() => {
        if (webviewPanel.visible && this.dirty) this.schedule();
      }),
      host.onDidChange(() => this.schedule()),
    );
    webview.html = panelDocument(webview, host.extensionUri, { script: "usage.js", styles: ["webview.css", "usage.css"], title: "Usage" });
  }

  /** Shows the Usage view (one per window), creating it when there is none. */
  static show(host: UsageHost): UsagePanel {
    if (UsagePanel.current) {
      UsagePanel.current.webviewPanel.reveal();
      return UsagePanel.current;
    }
    const panel = vscode.window.createWebviewPanel(USAGE_VIEW_TYPE, "Pi Usage", vscode.ViewColumn.Active, { enableScripts: true, enableFindWidget: true, retainContextWhenHidden: false });
    return (UsagePanel.current = new UsagePanel(panel, host));
  }

  /**
   * WebviewPanelSerializer: the Usage view VS Code brings back after a reload
   * (its options are in the memento, so the saved page state is not needed).
   */
  static restore(webviewPanel: vscode.WebviewPanel, host: UsageHost): void {
    UsagePanel.current?.webviewPanel.dispose();
    UsagePanel.current = new UsagePanel(webviewPanel, host);
    host.log.info("usage view restored");
  }

  static get shownPanel(): UsagePanel | undefined {
    return UsagePanel.current;
  }

  get currentOptions(): UsageViewOptions {
    return this.options;
  }

  get currentView(): UsageView | undefined {
    return this.view;
  }

  /** Resolves when the page has drawn `count` reports in all. */
  whenShown(count: number): Promise<void> {
    if (this.shown.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.shownWaiters.push(() => (this.shown.length >= count ? resolve() : this.whenShown(count).then(resolve))));
  }

  private post(message: UsageHostMessage): void {
    void this.webviewPanel.webview.postMessage(message);
  }

  /** A message from the page (validated here; public for the host tests, which stand in for the page). */
  async receive(raw: unknown): Promise<void> {
    if (!isUsageWebviewMessage(raw)) {
      this.host.log.warn("usage view: ignored an invalid message from the page");
      this.refused.push("invalid message");
      return;
    }
    switch (raw.type) {
      case "ready":
        this.ready = true;
        await this.refresh("open");
        return;
      case "setOptions": {
        const scopeChanged = raw.options.scope !== this.options.scope;
        this.options = raw.options;
        void this.host.memento.update(OPTIONS_KEY, { period: raw.options.period, stack: raw.options.stack, rollUp: raw.options.rollUp });
        if (scopeChanged) {
          this.post({ type: "loading", options: this.options });
          await this.host.setScope(raw.options.scope);
        }
        await this.refresh("options");
        return;
      }
      case "openSession":
        // Only a session this view listed (the page names it; the host decides).
        if (this.view?.topSessions.some((s) => s.path === raw.path)) await this.host.openSession(raw.path);
        else {
          this.host.log.warn("usage view: asked to open a session it did not show");
          this.refused.push("a session it did not show");
        }
        return;
      case "shown": {
        this.shown.push(raw.days);
        const waiters = this.shownWaiters;
        this.shownWaiters = [];
        for (const w of waiters) w();
        return;
      }
    }
  }

  private schedule(): void {
    if (!this.ready) return;
    if (!this.webviewPanel.visible) {
      this.dirty = true;
      return;
    }
    if (this.liveTimer) return;
    this.liveTimer = setTimeout(() => {
      this.liveTimer = undefined;
      void this.refresh("live");
    }, LIVE_DELAY_MS);
  }

  /** Computes the report of the current options and posts it (a later request wins over one under way). */
  private async refresh(reason: UsageMeasure["reason"]): Promise<void> {
    const generation = ++this.generation;
    this.dirty = false;
    const startCpu = process.cpuUsage();
    const start = performance.now();
    let rows: CatalogueRow[];
    try {
      if (this.options.scope !== this.host.scope()) this.options = { ...this.options, scope: this.host.scope() };
      rows = await this.host.rows();
    } catch (error) {
      this.host.log.error(`usage view: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    if (generation !== this.generation) return;
    const view = usageView(rows, this.options);
    this.view = view;
    this.post({ type: "report", options: this.options, view });
    const cpu = process.cpuUsage(startCpu);
    this.measures.push({ options: this.options, rows: rows.length, cpuMs: (cpu.user + cpu.system) / 1000, wallMs: performance.now() - start, reason });
    if (this.measures.length > 100) this.measures.splice(0, this.measures.length - 100);
  }

  dispose(): void {
    if (UsagePanel.current === this) UsagePanel.current = undefined;
    if (this.liveTimer) clearTimeout(this.liveTimer);
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions.length = 0;
    this.webviewPanel.dispose();
  }
}

function pick(saved: Partial<UsageViewOptions>): Partial<UsageViewOptions> {
  const out: Partial<UsageViewOptions> = {};
  if (saved.period === "7d" || saved.period === "30d" || saved.period === "90d" || saved.period === "all") out.period = saved.period;
  if (saved.stack === "model" || saved.stack === "project" || saved.stack === "kind") out.stack = saved.stack;
  if (typeof saved.rollUp === "boolean") out.rollUp = saved.rollUp;
  return out;
}
