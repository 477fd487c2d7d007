// The Usage view's command: Pi Sessions: Show Usage (also in the Sessions view's title bar).
import * as vscode from "vscode";
import type { Services } from "../services";
import { ok } from "../command-result";
import { OPEN_READER_COMMAND_ID } from "../reader";
import { SHOW_ALL_PROJECTS_COMMAND_ID, SHOW_WORKSPACE_SESSIONS_COMMAND_ID } from "../commands/sessions-view-commands";
import { SHOW_USAGE_COMMAND_ID, USAGE_VIEW_TYPE, UsagePanel, type UsageHost } from "./usage-panel";

export { SHOW_USAGE_COMMAND_ID, UsagePanel, USAGE_VIEW_TYPE, type UsageMeasure } from "./usage-panel";

export function registerUsage(services: Services): vscode.Disposable {
  const { context, sessions, log } = services;
  const host: UsageHost = {
    extensionUri: context.extensionUri,
    log,
    memento: context.globalState,
    rows: () => sessions.usageRows(),
    scope: () => sessions.scope,
    setScope: async (scope) => {
      // The Sessions view's scope: its title bar and list follow.
      await vscode.commands.executeCommand(scope === "all" ? SHOW_ALL_PROJECTS_COMMAND_ID : SHOW_WORKSPACE_SESSIONS_COMMAND_ID);
      await sessions.sessionGroups();
    },
    onDidChange: sessions.onDidChange,
    openSession: (path) => vscode.commands.executeCommand(OPEN_READER_COMMAND_ID, { sessionPath: path, preview: false }),
  };
  return vscode.Disposable.from(
    vscode.commands.registerCommand(SHOW_USAGE_COMMAND_ID, () => {
      UsagePanel.show(host);
      return ok({ shown: true });
    }),
    vscode.window.registerWebviewPanelSerializer(USAGE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel) => UsagePanel.restore(panel, host),
    }),
  );
}
