// Entry point of the VS Code extension. For now a skeleton: the log channel, the two
// views with placeholder trees and the refresh command; the real views replace the
// placeholder providers.
import * as vscode from "vscode";
import { registerSummaryPanel, type SummaryPanelController } from "./summary-panel/index";

export const SESSIONS_VIEW_ID = "piSessions.sessions";
export const ENTRIES_VIEW_ID = "piSessions.entries";
export const REFRESH_COMMAND_ID = "piSessions.refresh";

/** What `activate` returns: `vscode.extensions.getExtension(...).exports`. */
export interface PiSessionsApi {
  readonly log: vscode.LogOutputChannel;
  readonly sessions: vscode.TreeDataProvider<vscode.TreeItem>;
  readonly entries: vscode.TreeDataProvider<vscode.TreeItem>;
  /** The summary panel (issue 6): showEntry / preview / showResult, and a test hook. */
  readonly summaryPanel: SummaryPanelController;
  refresh(): void;
}

/** Shows one explanatory row until the real tree arrives. */
class PlaceholderTree implements vscode.TreeDataProvider<vscode.TreeItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly message: string) {}

  getTreeItem(item: vscode.TreeItem): vscode.TreeItem {
    return item;
  }

  getChildren(parent?: vscode.TreeItem): vscode.TreeItem[] {
    if (parent) return [];
    const item = new vscode.TreeItem(this.message, vscode.TreeItemCollapsibleState.None);
    item.iconPath = new vscode.ThemeIcon("info");
    return [item];
  }

  refresh(): void {
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function activate(context: vscode.ExtensionContext): PiSessionsApi {
  const log = vscode.window.createOutputChannel("Pi Sessions", { log: true });
  const sessions = new PlaceholderTree("No pi sessions loaded yet");
  const entries = new PlaceholderTree("Select a session to see its entries");

  const refresh = (): void => {
    log.info("refresh requested");
    sessions.refresh();
    entries.refresh();
  };

  context.subscriptions.push(
    log,
    sessions,
    entries,
    vscode.window.registerTreeDataProvider(SESSIONS_VIEW_ID, sessions),
    vscode.window.registerTreeDataProvider(ENTRIES_VIEW_ID, entries),
    vscode.commands.registerCommand(REFRESH_COMMAND_ID, refresh),
  );
  const summaryPanel = registerSummaryPanel(context, {
    log,
    // Until the Entries view can reveal entries (issue 5): say which entry.
    revealEntry: async (_sessionPath, entryId) => log.info(`reveal entry ${entryId}`),
    isTrusted: () => vscode.workspace.isTrusted,
    workspaceRoots: () => (vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.fsPath),
  });
  log.info(`activated (workspace trusted: ${vscode.workspace.isTrusted})`);
  return { log, sessions, entries, summaryPanel, refresh };
}

export function deactivate(): void {}
