// The summary panels of the window: opens them for entries, previews and
// results, keeps their open-file marks in step with the editor tabs, and
// restores them after a reload (WebviewPanelSerializer).
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import { openSession, type LoadedSession } from "../../core/session/open/open-session";
import { isPersistedWebviewState, type SummaryFile } from "../../webview/protocol";
import { buildPanelState, type PanelEnvironment, type SummaryExtras } from "./build-panel-state";
import { openTabPaths } from "./open-tabs";
import { restoredPanelState } from "./restore-panel-state";
import { SummaryPanel, type PanelHost, type PanelPhase } from "./summary-panel";
import type { SummaryPanelController, SummaryPanelDeps, SummaryPanelTesting, SummaryProposal } from "./summary-panel-api";
import { counted } from "../../core/text/counted";

export const APPLY_FAILED_NOTICE = "Nothing was written: the run that proposed this summary failed after Apply. Copy the text if you want it, or run the command again.";

type ConfirmOutside = (files: readonly SummaryFile[]) => Promise<boolean>;

async function askBeforeOpening(files: readonly SummaryFile[]): Promise<boolean> {
  const what = files.length === 1 ? files[0]!.path : `${counted(files.length, "file")} outside the workspace`;
  const detail = files.length === 1 ? undefined : files.map((file) => file.path).join("\n");
  const answer = await vscode.window.showWarningMessage(
    files.length === 1
      ? `${what} is outside the workspace and the session's folder. Open it?`
      : `${what} and the session's folder. Open them?`,
    { modal: true, ...(detail ? { detail } : {}) },
    "Open",
  );
  return answer === "Open";
}

export class PanelController implements SummaryPanelController, vscode.Disposable {
  private readonly panels: SummaryPanel[] = [];
  private readonly subscriptions: vscode.Disposable[] = [];
  private confirmOverride: ConfirmOutside | undefined;
  private readonly host: PanelHost;
  readonly testing: SummaryPanelTesting;

  constructor(
    extensionUri: vscode.Uri,
    private readonly deps: SummaryPanelDeps,
  ) {
    this.host = {
      extensionUri,
      log: deps.log,
      revealEntry: (sessionPath, entryId) => deps.revealEntry(sessionPath, entryId),
      showChanges: (sessionPath, path) => deps.showChanges(sessionPath, path),
      showLastContent: (sessionPath, path) => deps.showLastContent(sessionPath, path),
      confirmOutside: (files) => (this.confirmOverride ?? askBeforeOpening)(files),
      panelClosed: (panel) => this.forget(panel),
    };
    this.subscriptions.push(vscode.window.tabGroups.onDidChangeTabs(() => this.syncTabs()));
    this.testing = {
      panels: () =>
        this.panels.map((panel) => ({ webviewPanel: panel.webviewPanel, state: panel.state(), phase: panel.phase, routed: panel.routedMessages() })),
      post: (message, index) => this.panelAt(index).receive(message, "test"),
      setConfirmOutside: (answer) => {
        this.confirmOverride = answer;
      },
    };
  }

  async showEntry(session: LoadedSession, entryId: string): Promise<void> {
    const entry = session.entry(entryId);
    if (!entry || (entry.type !== "compaction" && entry.type !== "branch_summary")) {
      throw new Error(`${session.path ?? "session"}: ${entryId} is not a compaction or branch summary entry`);
    }
    await this.showView(session, entry, {});
  }

  async preview(proposal: SummaryProposal): Promise<string | null> {
    const extras: SummaryExtras = { model: proposal.model, tokensBefore: proposal.tokensBefore, tokensAfter: proposal.tokensAfter };
    const built = await buildPanelState(proposal.session, { ...proposal.entry, type: proposal.kind }, this.environment(), {
      mode: "preview",
      readOnly: !this.deps.isTrusted(),
      extras,
    });
    if (!built) throw new Error(`cannot preview: not a ${proposal.kind} entry of a session file`);
    return new Promise<string | null>((resolve) => {
      this.add(SummaryPanel.create(this.host, built.state, "awaiting", resolve));
    });
  }

  async showResult(session: LoadedSession, entry: object, extras: SummaryExtras): Promise<void> {
    const applying = [...this.panels].reverse().find((panel) => panel.phase === "applying" && panel.state().sessionPath === session.path);
    if (!applying) {
      await this.showView(session, entry, extras);
      return;
    }
    const built = await buildPanelState(session, entry, this.environment(), { mode: "view", readOnly: !this.deps.isTrusted(), extras });
    if (!built) throw new Error("showResult: not a compaction or branch summary entry");
    applying.showApplied(built.state);
  }

  applyFailed(sessionPath: string, error: string): void {
    const applying = [...this.panels].reverse().find((panel) => panel.phase === "applying" && panel.state().sessionPath === sessionPath);
    applying?.showApplyFailed(error, APPLY_FAILED_NOTICE);
  }

  /** WebviewPanelSerializer: a panel VS Code restores after a reload. */
  async restore(webviewPanel: vscode.WebviewPanel, saved: unknown): Promise<void> {
    if (!isPersistedWebviewState(saved)) {
      this.deps.log.warn("summary panel: the saved state of a restored panel is not valid; closing it");
      webviewPanel.dispose();
      return;
    }
    const session = await openSession(saved.panel.sessionPath).catch(() => undefined);
    const state = await restoredPanelState(saved, session, this.environment(), !this.deps.isTrusted());
    const phase: PanelPhase = state.mode === "preview" ? "detached" : "view";
    this.add(new SummaryPanel(webviewPanel, state, phase, this.host));
    this.deps.log.info(`summary panel restored (${state.kind}, ${state.mode}${state.notice ? ", with a notice" : ""})`);
  }

  dispose(): void {
    for (const panel of [...this.panels]) panel.dispose();
    for (const subscription of this.subscriptions.splice(0)) subscription.dispose();
  }

  private async showView(session: LoadedSession, entry: object, extras: SummaryExtras): Promise<void> {
    const built = await buildPanelState(session, entry, this.environment(), { mode: "view", readOnly: !this.deps.isTrusted(), extras });
    if (!built) throw new Error(`${session.path ?? "session"}: not a compaction or branch summary entry of a session file`);
    const state = built.state;
    const existing = this.panels.find(
      (panel) => panel.phase === "view" && panel.state().sessionPath === state.sessionPath && panel.state().entryId === state.entryId,
    );
    if (existing) {
      existing.update(state);
      existing.reveal();
      return;
    }
    this.add(SummaryPanel.create(this.host, state, "view"));
  }

  private environment(): PanelEnvironment {
    const piVersion = this.deps.piVersion?.();
    return { workspaceRoots: this.deps.workspaceRoots(), openPaths: openTabPaths(), exists: existsSync, ...(piVersion ? { piVersion } : {}) };
  }

  private add(panel: SummaryPanel): void {
    this.panels.push(panel);
  }

  private forget(panel: SummaryPanel): void {
    const at = this.panels.indexOf(panel);
    if (at >= 0) this.panels.splice(at, 1);
  }

  private syncTabs(): void {
    if (this.panels.length === 0) return;
    const openPaths = openTabPaths();
    for (const panel of this.panels) panel.syncOpenTabs(openPaths);
  }

  private panelAt(index: number | undefined): SummaryPanel {
    const panel = index === undefined ? this.panels[this.panels.length - 1] : this.panels[index];
    if (!panel) throw new Error("no summary panel is open");
    return panel;
  }
}
