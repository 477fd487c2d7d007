// Which session files belong to the open workspace: for each folder, pi's own
// folder for that cwd under the agent dir, and *.jsonl session files inside the
// folder that match piSessions.include and not piSessions.exclude.
import { existsSync } from "node:fs";
import * as vscode from "vscode";
import { findSessionFiles, isSessionFile, piSessionDirForCwd } from "../core/session/discover";
import type { ExtensionSettings } from "./settings";

export interface SessionGroup {
  folder: vscode.WorkspaceFolder;
  /** pi's folder for this workspace folder (it may not exist yet). */
  piDir: string;
  /** Session files, pi's folder first, each once. */
  files: string[];
}

function globList(patterns: readonly string[]): string | undefined {
  if (patterns.length === 0) return undefined;
  return patterns.length === 1 ? patterns[0] : `{${patterns.join(",")}}`;
}

async function workspaceSessionFiles(folder: vscode.WorkspaceFolder, settings: ExtensionSettings): Promise<string[]> {
  const include = globList(settings.include);
  if (!include) return [];
  const exclude = globList(settings.exclude);
  const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, include), exclude ? new vscode.RelativePattern(folder, exclude) : null);
  return uris
    .filter((uri) => uri.scheme === "file" && uri.fsPath.endsWith(".jsonl"))
    .map((uri) => uri.fsPath)
    .filter((path) => isSessionFile(path));
}

export async function discoverSessionGroups(settings: ExtensionSettings): Promise<SessionGroup[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return Promise.all(
    folders.map(async (folder) => {
      const piDir = piSessionDirForCwd(folder.uri.fsPath, settings.agentDir);
      const fromPi = existsSync(piDir) ? await findSessionFiles([piDir], { maxDepth: 0 }) : [];
      const inWorkspace = folder.uri.scheme === "file" ? await workspaceSessionFiles(folder, settings) : [];
      const files = [...new Set([...fromPi, ...inWorkspace])];
      return { folder, piDir, files };
    }),
  );
}
