// Which session files the Sessions view lists. This workspace: for each
// folder, pi's own folder for that cwd under the agent dir, and *.jsonl session
// files inside the folder that match piSessions.include and not
// piSessions.exclude. All projects: every folder under <agent-dir>/sessions/
// (and the workspace's files), grouped by the cwd each header records. With
// piSessions.omp.enabled, oh-my-pi's folders too: its folder(s) for each cwd,
// and every project folder /resume lists (`<root>/*/*.jsonl`). Sessions kept
// elsewhere (omp's record of them, piSessions.sessionFolders) join the group of
// the cwd their header records.
import { existsSync, realpathSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, join } from "node:path";
import * as vscode from "vscode";
import { findSessionFiles, isSessionFile, jsonlFilesInFolders, piSessionDirForCwd } from "../core/discovery/discover";
import { ompRecordedSessionFiles } from "../core/discovery/omp-recorded-sessions";
import { ompSessionDirsForCwd } from "../core/discovery/omp-session-folder";
import { ompListedFiles, ompListedFilesIn } from "../core/discovery/omp-listing";
import { readSessionHeaderFields, type HeaderFields } from "./session-header";
import type { ExtensionSettings } from "./settings";

export interface SessionGroup {
  /** Stable id of the group's node. */
  key: string;
  label: string;
  /** The workspace folder (this-workspace scope). */
  folder?: vscode.WorkspaceFolder;
  /** The recorded cwd (all-projects scope); "" when the headers record none. */
  cwd?: string;
  /** The recorded cwd does not exist on this machine any more. */
  cwdMissing: boolean;
  /** pi's folder for this group (it may not exist yet). */
  piDir: string;
  /** Session files, pi's folder first, each once. */
  files: string[];
}

export type SessionsScope = "workspace" | "all";

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

/** oh-my-pi's folders that hold a cwd's sessions (when omp discovery is on). */
export function ompDirsForCwd(cwd: string, settings: Pick<ExtensionSettings, "omp">): string[] {
  return settings.omp.enabled ? ompSessionDirsForCwd(cwd, settings.omp.sessionsRoot) : [];
}

async function ompFilesForCwd(cwd: string, settings: ExtensionSettings): Promise<string[]> {
  const files: string[] = [];
  for (const dir of ompDirsForCwd(cwd, settings)) for (const file of await ompListedFilesIn(dir)) if (isSessionFile(file)) files.push(file);
  return files;
}

/**
 * Session files kept outside the agents' folders: those omp recorded (its
 * `--session-dir` and `--session PATH` files, when omp discovery is on) and
 * those directly in piSessions.sessionFolders.
 */
export async function elsewhereSessionFiles(settings: Pick<ExtensionSettings, "omp" | "sessionFolders">): Promise<string[]> {
  const recorded = settings.omp.enabled ? await ompRecordedSessionFiles(settings.omp.agentDir) : [];
  const inFolders = await jsonlFilesInFolders(settings.sessionFolders);
  return [...new Set([...recorded, ...inFolders])].filter((file) => isSessionFile(file)).sort();
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export async function discoverSessionGroups(settings: ExtensionSettings, headers: (path: string) => HeaderFields | undefined = readSessionHeaderFields): Promise<SessionGroup[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const elsewhere = folders.length > 0 ? await elsewhereSessionFiles(settings) : [];
  const elsewhereCwd = new Map(elsewhere.map((file) => [file, headers(file)?.cwd ?? ""]).map(([file, cwd]) => [file, cwd ? canonical(cwd) : ""]));
  return Promise.all(
    folders.map(async (folder) => {
      const piDir = piSessionDirForCwd(folder.uri.fsPath, settings.agentDir);
      const fromPi = existsSync(piDir) ? await findSessionFiles([piDir], { maxDepth: 0 }) : [];
      const fromOmp = await ompFilesForCwd(folder.uri.fsPath, settings);
      const inWorkspace = folder.uri.scheme === "file" ? await workspaceSessionFiles(folder, settings) : [];
      const cwd = canonical(folder.uri.fsPath);
      const fromElsewhere = elsewhere.filter((file) => elsewhereCwd.get(file) === cwd);
      const files = [...new Set([...fromPi, ...fromOmp, ...inWorkspace, ...fromElsewhere])];
      return { key: `group:${folder.uri.toString()}`, label: folder.name, folder, cwdMissing: false, piDir, files };
    }),
  );
}

/**
 * Every session under <agent-dir>/sessions/ and the workspace's own files,
 * grouped by recorded cwd (groups sorted by label; a missing cwd marked).
 */
export async function discoverAllProjects(settings: ExtensionSettings, headers: (path: string) => HeaderFields | undefined = readSessionHeaderFields): Promise<SessionGroup[]> {
  const root = join(settings.agentDir, "sessions");
  let dirs: string[] = [];
  try {
    dirs = (await readdir(root, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => join(root, d.name));
  } catch {
    dirs = [];
  }
  const files = new Set<string>();
  for (const dir of dirs) for (const file of await findSessionFiles([dir], { maxDepth: 0 })) files.add(file);
  if (settings.omp.enabled) for (const file of await ompListedFiles(settings.omp.sessionsRoot)) if (isSessionFile(file)) files.add(file);
  for (const file of await elsewhereSessionFiles(settings)) files.add(file);
  for (const group of await discoverSessionGroups(settings, headers)) for (const file of group.files) files.add(file);
  const byCwd = new Map<string, string[]>();
  for (const file of files) {
    const cwd = headers(file)?.cwd ?? "";
    const list = byCwd.get(cwd);
    if (list) list.push(file);
    else byCwd.set(cwd, [file]);
  }
  return [...byCwd.entries()]
    .map(([cwd, list]) => ({
      key: `cwd:${cwd}`,
      label: cwd ? basename(cwd) || cwd : "(no cwd recorded)",
      cwd,
      cwdMissing: cwd === "" || !existsSync(cwd),
      piDir: cwd ? piSessionDirForCwd(cwd, settings.agentDir) : root,
      files: list.sort(),
    }))
    .sort((a, b) => a.label.localeCompare(b.label) || (a.cwd ?? "").localeCompare(b.cwd ?? ""));
}
