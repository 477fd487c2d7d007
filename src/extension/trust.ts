// Workspace trust: in Restricted Mode the views work read-only; nothing calls a
// model, nothing is written, and the project's .pi/settings.json and prompt
// files are not honoured.
import * as vscode from "vscode";
import { notDone, type CommandResult } from "./command-result";

export function isTrusted(): boolean {
  return vscode.workspace.isTrusted;
}

/** undefined when the workspace is trusted; otherwise the refusal (shown). */
export function refuseUntrusted(what: string, log: vscode.LogOutputChannel): CommandResult<never> | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  const message = `${what} needs a trusted workspace: in Restricted Mode Pi Sessions only reads sessions (no model calls, no writes).`;
  log.warn(`refused in Restricted Mode: ${what}`);
  void vscode.window.showWarningMessage(message, "Manage Workspace Trust").then((choice) => {
    if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
  });
  return notDone("untrusted", message);
}
