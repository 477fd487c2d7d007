// Set Up the pi Extension…: lists the pi extension shipped in this .vsix in
// pi's settings (all projects: <agent-dir>/settings.json; this project:
// .pi/settings.json), shows whether it is active, removes it. After a
// compaction made here, one notice offers it to a user whose pi still compacts
// on its own (pi's own /compact and auto-compaction then use the same presets,
// prompt files and files-touched block).
import * as vscode from "vscode";
import { extensionStatus, installExtension, SetupError, uninstallExtension, type ExtensionStatus, type SetupLocation, type SetupScope } from "../../core/pi-extension-setup/index.js";
import { notDone, ok, type CommandResult } from "../command-result";
import { reportError } from "../error-actions";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";

export const PI_EXTENSION_SETUP_COMMAND_ID = "piSessions.setUpPiExtension";
const NOTICE_DISMISSED_KEY = "piSessions.piExtensionNotice.dismissed";
let offeredThisWindow = false;

type Action = "install" | "uninstall" | "status";

export interface PiExtensionSetupResult {
  action: Action;
  scope?: SetupScope;
  status: ExtensionStatus;
}

function extensionPath(services: Services): string {
  return services.context.asAbsolutePath("dist/pi-extension.js");
}

function location(services: Services): SetupLocation {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  return { agentDir: services.settings().agentDir, cwd: folder?.scheme === "file" ? folder.fsPath : process.cwd() };
}

export function statusText(status: ExtensionStatus): string {
  const where = [status.global, status.project].filter((s) => s.entries.some((e) => !s.missing.includes(e))).map((s) => (s.scope === "global" ? "all projects" : "this project"));
  if (status.active) return `Active in pi for ${where.join(" and ")}: pi's own /compact, auto-compaction and /tree summaries use your presets and the files-touched manifest.`;
  const stale = [status.global, status.project].some((s) => s.missing.length > 0);
  return stale ? "Not active: pi's settings name a pi-sessions extension file that is gone (an older version?). Set it up again." : "Not active: pi compacts and summarises on its own.";
}

function parseArgs(raw: unknown): { action?: Action; scope?: SetupScope } {
  if (typeof raw !== "object" || raw === null) return {};
  const r = raw as Record<string, unknown>;
  const action = r.action === "install" || r.action === "uninstall" || r.action === "status" ? r.action : undefined;
  const scope = r.scope === "global" || r.scope === "project" ? r.scope : undefined;
  return { action, scope };
}

async function pick(status: ExtensionStatus, hasFolder: boolean): Promise<{ action: Action; scope?: SetupScope } | undefined> {
  type Item = vscode.QuickPickItem & { action: Action; scope?: SetupScope };
  const listed = status.global.entries.length > 0 || status.project.entries.length > 0;
  const items: Item[] = [
    { label: "$(globe) Use in pi for all projects", description: status.global.settingsFile, action: "install", scope: "global" },
    ...(hasFolder ? [{ label: "$(root-folder) Use in pi for this project only", description: status.project.settingsFile, action: "install" as const, scope: "project" as const }] : []),
    ...(listed ? [{ label: "$(trash) Stop using it in pi", description: "removes it from pi's settings", action: "uninstall" as const }] : []),
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: "Pi Sessions: the pi extension", placeHolder: statusText(status) });
  return chosen ? { action: chosen.action, scope: chosen.scope } : undefined;
}

export async function setUpPiExtension(services: Services, raw: unknown): Promise<CommandResult<PiExtensionSetupResult>> {
  try {
    const where = location(services);
    const path = extensionPath(services);
    let { action, scope } = parseArgs(raw);
    if (!action) {
      const chosen = await pick(extensionStatus(where, path), Boolean(vscode.workspace.workspaceFolders?.length));
      if (!chosen) return notDone("cancelled", "Nothing chosen.");
      ({ action, scope } = chosen);
    }
    if (action === "status") {
      const status = extensionStatus(where, path);
      void vscode.window.showInformationMessage(statusText(status));
      return ok({ action, status });
    }
    const refused = refuseUntrusted("Setting up the pi extension", services.log);
    if (refused) return refused;
    if (action === "install") {
      const change = await installExtension(scope ?? "global", where, path);
      services.log.info(`pi extension ${change.changed ? "listed" : "already listed"} in ${change.settingsFile}`);
      void vscode.window.showInformationMessage(`pi loads the pi-sessions extension at its next start (or /reload in a running pi). Listed in ${change.settingsFile}.`);
    } else {
      const changes = await uninstallExtension(scope, where, path);
      for (const c of changes) if (c.changed) services.log.info(`pi extension removed from ${c.settingsFile}`);
      void vscode.window.showInformationMessage("pi no longer loads the pi-sessions extension (from its next start).");
    }
    return ok({ action, ...(scope ? { scope } : {}), status: extensionStatus(where, path) });
  } catch (error) {
    if (error instanceof SetupError) {
      void vscode.window.showErrorMessage(error.message);
      services.log.warn(error.message);
      return notDone("error", error.message);
    }
    return reportError(error, "Set Up the pi Extension", { log: services.log });
  }
}

/** After a compaction made here: one offer, unless the extension is active or the user said no for good. */
export function offerPiExtensionAfterCompaction(services: Services): void {
  if (!vscode.workspace.isTrusted || services.context.globalState.get<boolean>(NOTICE_DISMISSED_KEY)) return;
  let status: ExtensionStatus;
  try {
    status = extensionStatus(location(services), extensionPath(services));
  } catch {
    return;
  }
  if (status.active || offeredThisWindow) return;
  // Once per window: a later compaction does not ask again until the next start.
  offeredThisWindow = true;
  void vscode.window
    .showInformationMessage("pi's own /compact and auto-compaction can use the same presets, prompt files and files-touched manifest. Set up the pi extension?", "Set Up…", "Don't Ask Again")
    .then((choice) => {
      if (choice === "Set Up…") void vscode.commands.executeCommand(PI_EXTENSION_SETUP_COMMAND_ID);
      else if (choice === "Don't Ask Again") void services.context.globalState.update(NOTICE_DISMISSED_KEY, true);
    });
}
