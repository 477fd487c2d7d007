// Pi Sessions: Sessions That Touched This File — every session (this workspace,
// or all projects) and entry that read, wrote, edited, moved or deleted a file,
// newest first; choosing one shows that entry.
import { basename } from "node:path";
import * as vscode from "vscode";
import { showBidiControls } from "../../core/text/bidi-controls";
import { notDone, ok, type CommandResult } from "../command-result";
import { openEntry } from "../commands/entry-actions";
import type { Services } from "../services";
import { fileCommandArgs, sessionsInScope, type SessionScope } from "./file-target";
import type { FileTouchIndex } from "./file-touch-index";

export const SESSIONS_TOUCHING_FILE_COMMAND_ID = "piSessions.sessionsTouchingFile";

export interface FileTouchRow {
  sessionPath: string;
  sessionTitle: string;
  entryId: string;
  timestamp?: string;
  ops: string;
  tool: string;
  command?: string;
}

/** Work between two yields to the event loop while sessions are analysed (ms). */
const SLICE_MS = 30;

export async function fileTouchRows(services: Services, index: FileTouchIndex, path: string, scope: SessionScope, token?: vscode.CancellationToken): Promise<FileTouchRow[]> {
  const rows: FileTouchRow[] = [];
  let sliceStart = Date.now();
  for (const sessionPath of await sessionsInScope(services, scope)) {
    if (token?.isCancellationRequested) break;
    if (Date.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = Date.now();
    }
    let matching;
    try {
      matching = await index.touchesOfFileIn(sessionPath, path);
    } catch (error) {
      services.log.warn(`cannot read ${sessionPath}: ${error instanceof Error ? error.message : String(error)}`);
      continue;
    }
    if (matching.length === 0) continue;
    const title = services.sessions.factsOf(sessionPath)?.title ?? basename(sessionPath);
    for (const touch of matching) {
      rows.push({
        sessionPath,
        sessionTitle: title,
        entryId: touch.entryId,
        ops: touch.ops,
        tool: touch.tool,
        ...(touch.timestamp !== undefined ? { timestamp: touch.timestamp } : {}),
        ...(touch.command !== undefined ? { command: touch.command } : {}),
      });
    }
  }
  try {
    await index.save();
  } catch (error) {
    services.log.warn(`cannot save the file-touch cache: ${error instanceof Error ? error.message : String(error)}`);
  }
  return rows.sort((a, b) => (b.timestamp ?? "").localeCompare(a.timestamp ?? ""));
}

/** How a row names what was done: the tool, or the command it ran (`!cmd` for the user's own). */
export function describeTouch(row: Pick<FileTouchRow, "tool" | "command">): string {
  if (row.tool === "bashExecution") return `!${row.command ?? ""}`;
  return row.command !== undefined ? `${row.tool}: ${row.command}` : row.tool;
}

interface RowItem extends vscode.QuickPickItem {
  row: FileTouchRow;
}

function itemOf(row: FileTouchRow): RowItem {
  const when = row.timestamp ? new Date(row.timestamp).toLocaleString() : "";
  return {
    label: `${row.ops.padEnd(5, " ")} ${showBidiControls(describeTouch(row)).slice(0, 160)}`,
    description: showBidiControls(row.sessionTitle),
    detail: [when, row.entryId].filter(Boolean).join(" · "),
    row,
  };
}

export async function sessionsTouchingFile(services: Services, index: FileTouchIndex, raw: unknown): Promise<CommandResult<{ rows: FileTouchRow[] }>> {
  const args = fileCommandArgs(raw);
  if (!args.path) {
    void vscode.window.showInformationMessage("Open a file (or pick one in the Explorer) to see the pi sessions that touched it.");
    return notDone("not-applicable", "No file.");
  }
  const path = args.path;
  let scope: SessionScope = args.scope ?? "workspace";
  const load = (s: SessionScope): Thenable<FileTouchRow[]> =>
    vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Pi: looking for sessions that touched the file…" }, () =>
      fileTouchRows(services, index, path, s),
    );
  if (args.list) return ok({ rows: await load(scope) });

  const pick = vscode.window.createQuickPick<RowItem>();
  const scopeButton = (): vscode.QuickInputButton => ({
    iconPath: new vscode.ThemeIcon(scope === "workspace" ? "globe" : "root-folder"),
    tooltip: scope === "workspace" ? "Search all projects" : "Search this workspace only",
  });
  pick.title = `Pi sessions that touched ${basename(path)} (${scope === "workspace" ? "this workspace" : "all projects"})`;
  pick.placeholder = "R read · W write · E edit · M moved here · D deleted — pick one to read its entry";
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.buttons = [scopeButton()];
  let rows: FileTouchRow[] = [];
  const fill = async (): Promise<void> => {
    pick.busy = true;
    rows = await load(scope);
    pick.items = rows.map(itemOf);
    pick.busy = false;
    if (rows.length === 0) pick.placeholder = `No ${scope === "workspace" ? "workspace " : ""}session touched this file.`;
  };
  const chosen = await new Promise<FileTouchRow | undefined>((resolve) => {
    pick.onDidTriggerButton(() => {
      scope = scope === "workspace" ? "all" : "workspace";
      pick.title = `Pi sessions that touched ${basename(path)} (${scope === "workspace" ? "this workspace" : "all projects"})`;
      pick.buttons = [scopeButton()];
      void fill();
    });
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.row);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
    void fill();
  });
  pick.dispose();
  if (!chosen) return notDone("cancelled", "Nothing chosen.");
  await openEntry(services, chosen.sessionPath, chosen.entryId);
  return ok({ rows });
}
