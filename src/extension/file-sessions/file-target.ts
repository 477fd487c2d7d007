// Which file a files ⇄ sessions command is about, and which sessions to look in.
import { join } from "node:path";
import * as vscode from "vscode";
import { findSessionFiles, isSessionFile } from "../../core/discovery/discover";
import { ompListedFiles } from "../../core/discovery/omp-listing";
import { elsewhereSessionFiles } from "../session-discovery";
import type { Services } from "../services";

export type SessionScope = "workspace" | "all";

export interface FileCommandArgs {
  /** Absolute path of the file. */
  path?: string;
  sessionPath?: string;
  scope?: SessionScope;
  /** Skip the quick pick: "all" (the whole session's diff) or a step index. */
  step?: "all" | number;
  /** Return the rows instead of showing a quick pick. */
  list?: boolean;
}

/** From a menu (a Uri), a script ({ path, … }), or the active editor. */
export function fileCommandArgs(raw: unknown): FileCommandArgs {
  if (raw instanceof vscode.Uri) return raw.scheme === "file" ? { path: raw.fsPath } : {};
  const args: FileCommandArgs = {};
  if (typeof raw === "object" && raw !== null) {
    const r = raw as Record<string, unknown>;
    if (typeof r.path === "string") args.path = r.path;
    if (typeof r.sessionPath === "string") args.sessionPath = r.sessionPath;
    if (r.scope === "workspace" || r.scope === "all") args.scope = r.scope;
    if (r.step === "all" || typeof r.step === "number") args.step = r.step;
    if (r.list === true) args.list = true;
  }
  if (!args.path) {
    const uri = vscode.window.activeTextEditor?.document.uri;
    if (uri?.scheme === "file") args.path = uri.fsPath;
  }
  return args;
}

/** Session files of the workspace (the Sessions view's), or of every project under pi's and omp's agent dirs. */
export async function sessionsInScope(services: Services, scope: SessionScope): Promise<string[]> {
  await services.sessions.sessionGroups();
  if (scope === "workspace") return services.sessions.allPaths();
  const settings = services.settings();
  const all = await findSessionFiles([join(settings.agentDir, "sessions")], { maxDepth: 1 });
  // oh-my-pi's projects as its /resume lists them (not its subagent files).
  const omp = settings.omp.enabled ? (await ompListedFiles(settings.omp.sessionsRoot)).filter((f) => isSessionFile(f)) : [];
  return [...new Set([...services.sessions.allPaths(), ...all, ...omp, ...(await elsewhereSessionFiles(settings))])];
}
