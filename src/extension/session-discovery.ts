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
  /** The files listed only because omp recorded them (they leave with their record). */
  recorded?: ReadonlySet<string>;
}

/** The session files omp recorded outside its folders that exist (read again by each look). */
export type RecordedFiles = () => Promise<string[]>;

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
  const { recorded, inFolders } = await elsewhereParts(settings);
  return [...new Set([...recorded, ...inFolders])].sort();
}

/** The files omp recorded and those in piSessions.sessionFolders, apart (each a session file name). */
async function elsewhereParts(settings: Pick<ExtensionSettings, "omp" | "sessionFolders">, recordedFiles?: RecordedFiles): Promise<{ recorded: string[]; inFolders: string[] }> {
  const recorded = settings.omp.enabled ? await (recordedFiles ?? (() => ompRecordedSessionFiles(settings.omp.agentDir)))() : [];
  const inFolders = await jsonlFilesInFolders(settings.sessionFolders);
  return { recorded: recorded.filter((file) => isSessionFile(file)), inFolders: inFolders.filter((file) => isSessionFile(file)) };
}

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The workspace folder a session recorded in `cwd` belongs to (its canonical path equal), if any. */
export function workspaceFolderForCwd(cwd: string | undefined): vscode.WorkspaceFolder | undefined {
  if (!cwd) return undefined;
  const wanted = canonical(cwd);
  return (vscode.workspace.workspaceFolders ?? []).find((folder) => canonical(folder.uri.fsPath) === wanted);
}

export async function discoverSessionGroups(settings: ExtensionSettings, headers: (path: string) => HeaderFields | undefined = readSessionHeaderFields, recordedFiles?: RecordedFiles): Promise<SessionGroup[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const parts = folders.length > 0 ? await elsewhereParts(settings, recordedFiles) : { recorded: [], inFolders: [] };
  const elsewhere = [...new Set([...parts.recorded, ...parts.inFolders])];
  const inFolders = new Set(parts.inFolders);
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
      const otherwise = new Set([...fromPi, ...fromOmp, ...inWorkspace]);
      const recorded = new Set(fromElsewhere.filter((file) => !inFolders.has(file) && !otherwise.has(file)));
      return { key: `group:${folder.uri.toString()}`, label: folder.name, folder, cwdMissing: false, piDir, files, recorded };
    }),
  );
}

/**
 * Every session under <agent-dir>/sessions/ and the workspace's own files,
 * grouped by recorded cwd (groups sorted by label; a missing cwd marked).
 */
export async function discoverAllProjects(settings: ExtensionSettings, headers: (path: string) => HeaderFields | undefined = readSessionHeaderFields, recordedFiles?: RecordedFiles): Promise<SessionGroup[]> {
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
  const parts = await elsewhereParts(settings, recordedFiles);
  for (const file of parts.inFolders) files.add(file);
  const recordedOnly = new Set<string>();
  for (const group of await discoverSessionGroups(settings, headers, async () => parts.recorded)) for (const file of group.files) if (!group.recorded?.has(file)) files.add(file);
  for (const file of parts.recorded) if (!files.has(file)) recordedOnly.add(file);
  for (const file of recordedOnly) files.add(file);
  const byCwd = new Map<string, string[]>();
  for (const file of files) {
    const cwd = headers(file)?.cwd ?? "";
    const list = byCwd.get(cwd);
    if (list) list.push(file);
    else byCwd.set(cwd, [file]);
  }
  return [...byCwd.entries()]
    .map(([cwd, list]) => ({ ...projectGroup(cwd, settings), files: list.sort(), recorded: new Set(list.filter((file) => recordedOnly.has(file))) }))
    .sort(compareProjectGroups);
}

/** The group of every project for sessions recorded in `cwd` ("" when none is recorded), without its files. */
export function projectGroup(cwd: string, settings: Pick<ExtensionSettings, "agentDir">): Omit<SessionGroup, "files"> {
  return {
    key: `cwd:${cwd}`,
    label: cwd ? basename(cwd) || cwd : "(no cwd recorded)",
    cwd,
    cwdMissing: cwd === "" || !existsSync(cwd),
    piDir: cwd ? piSessionDirForCwd(cwd, settings.agentDir) : join(settings.agentDir, "sessions"),
  };
}

export function compareProjectGroups(a: SessionGroup, b: SessionGroup): number {
  return a.label.localeCompare(b.label) || (a.cwd ?? "").localeCompare(b.cwd ?? "");
}

/**
 * The groups with one more session file omp recorded (it joins the group of the
 * cwd its header records: this workspace's folder, or every project's group for
 * that cwd, a new one if there is none); undefined when it belongs to no group
 * shown (another project's session, this workspace listed).
 */
export function withRecordedFile(groups: readonly SessionGroup[], scope: SessionsScope, path: string, header: HeaderFields, settings: Pick<ExtensionSettings, "agentDir">): { groups: SessionGroup[]; key: string } | undefined {
  const cwd = header.cwd ?? "";
  const key = scope === "all" ? `cwd:${cwd}` : (() => {
    const folder = workspaceFolderForCwd(cwd);
    return folder ? `group:${folder.uri.toString()}` : undefined;
  })();
  if (key === undefined) return undefined;
  const at = groups.findIndex((group) => group.key === key);
  if (at < 0) {
    if (scope !== "all") return undefined;
    return { groups: [...groups, { ...projectGroup(cwd, settings), files: [path], recorded: new Set([path]) }].sort(compareProjectGroups), key };
  }
  const group = groups[at]!;
  if (group.files.includes(path)) return undefined;
  const next = [...groups];
  next[at] = { ...group, files: [...group.files, path], recorded: new Set([...(group.recorded ?? []), path]) };
  return { groups: next, key };
}

/** The groups without a file listed only because omp recorded it (its record gone, or the file); undefined when no group lists it that way. */
export function withoutRecordedFile(groups: readonly SessionGroup[], path: string): { groups: SessionGroup[]; key: string } | undefined {
  const at = groups.findIndex((group) => group.recorded?.has(path));
  if (at < 0) return undefined;
  const group = groups[at]!;
  const recorded = new Set(group.recorded);
  recorded.delete(path);
  const next = [...groups];
  next[at] = { ...group, files: group.files.filter((file) => file !== path), recorded };
  return { groups: next, key: group.key };
}

/** Whether two lists of groups show the same (a look that found nothing new sends no change). */
export function sameGroups(a: readonly SessionGroup[], b: readonly SessionGroup[]): boolean {
  return (
    a.length === b.length &&
    a.every((x, i) => {
      const y = b[i]!;
      return (
        x.key === y.key &&
        x.label === y.label &&
        x.cwd === y.cwd &&
        x.cwdMissing === y.cwdMissing &&
        x.piDir === y.piDir &&
        x.folder?.uri.toString() === y.folder?.uri.toString() &&
        x.folder?.name === y.folder?.name &&
        x.files.length === y.files.length &&
        x.files.every((file, j) => file === y.files[j]) &&
        (x.recorded?.size ?? 0) === (y.recorded?.size ?? 0) &&
        [...(x.recorded ?? [])].every((file) => y.recorded?.has(file))
      );
    })
  );
}
