// What the summary panel's extension-host suites share: the fixture session
// (../summary-panel-session.ts) written into the launch's scratch space, the
// extension's panel controller, waiting, closing editors.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as vscode from "vscode";
import type { SummaryPanelController } from "../../../src/extension/summary-panel/index";
import type { SummaryPanelState } from "../../../src/webview/protocol";
import { PANEL_SESSION_IDS, panelSessionText } from "../summary-panel-session";
import { activateExtension } from "./extension-under-test";

/** The extension's panel controller, from its hidden internals command (the extension's own instance, not a copy bundled with the test). */
export async function summaryPanelController(): Promise<SummaryPanelController> {
  await activateExtension();
  const internals = (await vscode.commands.executeCommand("_piSessions.internals")) as { panel?: SummaryPanelController } | undefined;
  if (!internals?.panel) throw new Error("the extension's internals command did not give the summary panel");
  return internals.panel;
}

export interface PanelSession {
  path: string;
  workspace: string;
  /** An existing file outside the workspace and the session cwd. */
  outsideFile: string;
  ids: typeof PANEL_SESSION_IDS;
}

/** The session file in a fresh folder of the launch's scratch space (never the committed fixtures). */
export function writePanelSession(options: { withTail?: boolean } = {}): PanelSession {
  const workspace = process.env.PI_SESSIONS_TEST_WORKSPACE;
  if (!workspace) throw new Error("PI_SESSIONS_TEST_WORKSPACE is not set: run through npm run test:vscode");
  const dir = mkdtempSync(join(tmpdir(), "summary-panel-"));
  mkdirSync(join(dir, "elsewhere"));
  const outsideFile = join(dir, "elsewhere", "notes.txt");
  writeFileSync(outsideFile, "notes outside the workspace\n");
  const path = join(dir, "2026-01-10T09-00-00-000Z_summary-panel.jsonl");
  writeFileSync(path, panelSessionText({ workspace, outsideFile, withTail: options.withTail }));
  return { path, workspace, outsideFile, ids: PANEL_SESSION_IDS };
}

export async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export function fileRow(state: SummaryPanelState, displayPath: string) {
  const row = state.files.find((file) => file.displayPath === displayPath);
  if (!row) throw new Error(`no manifest row ${displayPath} in ${state.files.map((file) => file.displayPath).join(", ")}`);
  return row;
}

export async function closeAllEditors(): Promise<void> {
  await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  await waitFor("all editors closed", () => vscode.window.tabGroups.all.every((group) => group.tabs.length === 0) || undefined);
}

export { OUR_MODEL, OUR_SUMMARY } from "../summary-panel-session";
