// Errors shown with the action that fixes them: a missing key → "Set API Key…",
// a bad setting → "Open Settings", an old file → "Migrate…", anything else →
// "Show Log". Nothing was written in any of these cases.
import * as vscode from "vscode";
import { isWriteRefusedError } from "../core/session/append/append";
import { isModelCallError } from "../core/summarize/model-call-error";
import { isModelConfigError } from "../core/summarize/model-config-error";
import { RunInputError } from "../core/write";
import { notDone, type CommandResult } from "./command-result";

export interface ErrorContext {
  log: vscode.LogOutputChannel;
  sessionPath?: string;
}

type Action = "Open Settings" | "Set API Key…" | "Migrate…" | "Show Log" | "Refresh";

function describe(error: unknown): { message: string; actions: Action[]; cancelled: boolean } {
  if (isModelCallError(error)) {
    if (error.kind === "aborted") return { message: "Cancelled: nothing was written.", actions: [], cancelled: true };
    const actions: Action[] = error.kind === "auth" ? ["Set API Key…", "Show Log"] : ["Show Log", "Open Settings"];
    return { message: `${error.message} The session file was not changed.`, actions, cancelled: false };
  }
  if (isModelConfigError(error)) {
    const actions: Action[] =
      error.code === "missing-key" || error.code === "key-command-failed" || error.code === "oauth-refresh-failed"
        ? ["Set API Key…", "Open Settings"]
        : ["Open Settings", "Show Log"];
    return { message: error.message, actions, cancelled: false };
  }
  if (isWriteRefusedError(error)) {
    const actions: Action[] = error.reason === "needs-migration" ? ["Migrate…"] : error.reason === "changed-on-disk" ? ["Refresh", "Show Log"] : ["Show Log"];
    return { message: `Nothing was written: ${error.message}`, actions, cancelled: false };
  }
  if (error instanceof RunInputError) return { message: error.message, actions: ["Show Log"], cancelled: false };
  const message = error instanceof Error ? error.message : String(error);
  return { message, actions: ["Show Log"], cancelled: false };
}

/** Logs and shows the error (not awaiting the buttons) and returns it as a command result. */
export function reportError(error: unknown, what: string, context: ErrorContext): CommandResult<never> {
  const { message, actions, cancelled } = describe(error);
  if (cancelled) {
    context.log.info(`${what}: cancelled`);
    void vscode.window.showInformationMessage(`${what}: ${message}`);
    return notDone("cancelled", message);
  }
  context.log.error(`${what}: ${message}`);
  void vscode.window.showErrorMessage(`${what} failed: ${message}`, ...actions).then((choice) => runAction(choice, context));
  return notDone("error", message);
}

function runAction(choice: Action | undefined, context: ErrorContext): void {
  switch (choice) {
    case "Open Settings":
      void vscode.commands.executeCommand("workbench.action.openSettings", "piSessions");
      break;
    case "Set API Key…":
      void vscode.commands.executeCommand("piSessions.setApiKey");
      break;
    case "Migrate…":
      void vscode.commands.executeCommand("piSessions.migrateSession", context.sessionPath ? { sessionPath: context.sessionPath } : undefined);
      break;
    case "Refresh":
      void vscode.commands.executeCommand("piSessions.refresh");
      break;
    case "Show Log":
      context.log.show(true);
      break;
  }
}
