// Which session a command works on: the one passed, else the active one, else
// a quick pick of the workspace's sessions. Read fresh from disk first (a
// writer's append checks the file against what was read).
import { basename } from "node:path";
import * as vscode from "vscode";
import type { LoadedSession } from "../../core/session/open/open-session";
import { notDone, type CommandResult } from "../command-result";
import type { CommandArgs } from "../command-args";
import { tokensText } from "../session-facts";
import type { Services } from "../services";
import { counted } from "../../core/text/counted";

export async function pickSessionPath(services: Services, placeHolder = "Pick a pi session"): Promise<string | undefined> {
  await services.sessions.sessionGroups();
  const paths = services.sessions.allPaths();
  if (paths.length === 0) {
    void vscode.window.showInformationMessage("No pi sessions in this workspace.");
    return undefined;
  }
  const items = paths.map((path) => {
    const facts = services.sessions.factsOf(path);
    return { label: facts?.title ?? basename(path), description: facts ? `${counted(facts.entryCount, "entry")} · ${tokensText(facts)}` : "", detail: path, path };
  });
  return (await vscode.window.showQuickPick(items, { placeHolder, matchOnDetail: true }))?.path;
}

export async function sessionTarget(services: Services, args: CommandArgs): Promise<{ path: string; session: LoadedSession } | CommandResult<never>> {
  const path = args.sessionPath ?? services.active.path ?? (await pickSessionPath(services));
  if (!path) return notDone("no-session", "No session chosen.");
  try {
    await services.store.get(path);
    const session = (await services.store.refresh(path)) ?? (await services.store.get(path));
    return { path, session };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`Pi Sessions: ${message}`);
    return notDone("error", message);
  }
}

export function isNotDone(value: unknown): value is CommandResult<never> {
  return typeof value === "object" && value !== null && "ok" in value && (value as { ok: unknown }).ok === false;
}
