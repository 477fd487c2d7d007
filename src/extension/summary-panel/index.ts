// The summary panel (issue 6): registerSummaryPanel wires the controller, the
// WebviewPanelSerializer and the piSessions.openSummary command at activation.
import * as vscode from "vscode";
import { openSession } from "../../core/session/open/open-session";
import { PanelController } from "./panel-controller";
import { SUMMARY_VIEW_TYPE } from "./summary-panel";
import type { SummaryPanelController, SummaryPanelDeps } from "./summary-panel-api";

export { SUMMARY_VIEW_TYPE } from "./summary-panel";
export type { SummaryExtras } from "./build-panel-state";
export type { RouteResult } from "./message-router";
export type { PanelSnapshot, SummaryPanelController, SummaryPanelDeps, SummaryPanelTesting, SummaryProposal } from "./summary-panel-api";

export const OPEN_SUMMARY_COMMAND_ID = "piSessions.openSummary";

/** The command's arguments: (sessionPath, entryId) or one object { sessionPath, entryId }. */
export function openSummaryArgs(args: readonly unknown[]): { sessionPath: string; entryId: string } | undefined {
  const [first, second] = args;
  if (typeof first === "string" && typeof second === "string") return { sessionPath: first, entryId: second };
  if (typeof first === "object" && first !== null) {
    const { sessionPath, entryId } = first as { sessionPath?: unknown; entryId?: unknown };
    if (typeof sessionPath === "string" && typeof entryId === "string") return { sessionPath, entryId };
  }
  return undefined;
}

export function registerSummaryPanel(context: vscode.ExtensionContext, deps: SummaryPanelDeps): SummaryPanelController {
  const controller = new PanelController(context.extensionUri, deps);
  const openSummary = async (...args: unknown[]): Promise<void> => {
    const target = openSummaryArgs(args);
    if (!target) {
      void vscode.window.showErrorMessage("Pi Sessions: Open Summary needs a session file and a summary entry id.");
      return;
    }
    try {
      await controller.showEntry(await openSession(target.sessionPath), target.entryId);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      deps.log.error(`open summary: ${text}`);
      void vscode.window.showErrorMessage(`Pi Sessions: ${text}`);
    }
  };
  context.subscriptions.push(
    controller,
    vscode.window.registerWebviewPanelSerializer(SUMMARY_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: unknown) => controller.restore(panel, state),
    }),
    vscode.commands.registerCommand(OPEN_SUMMARY_COMMAND_ID, openSummary),
  );
  return controller;
}
