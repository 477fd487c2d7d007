// Session files omp keeps outside its sessions root (`--session-dir DIR`,
// `$PI_CODING_AGENT_SESSION_DIR`, `--session PATH`, a fork into another
// folder) and records so `omp gc` can find them: every session manager, when it
// picks a file, writes `<state>/custom-session-files/<hash>` holding the file's
// absolute path unless the file is a `.jsonl` under the default sessions root,
// and a terminal breadcrumb `<state>/terminal-sessions/<tty>` holding the cwd
// and the session path (relative to the cwd) on its first two lines. omp's gc
// reads both folders the same way (trimmed lines, resolved, existing files).
// A watcher follows the two folders record by record (`ompRecordFolders`,
// `ompRecordTarget`): one new record is one file read, not the folders again.

import { readdir, readFile, stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { ompStateDir, ompSessionsRoot, type OmpDirOptions } from "../agent/omp-18/omp-dirs.js";

/** The two folders omp records sessions in: `custom-session-files/` (the path) and `terminal-sessions/` (cwd, then the path). */
export interface OmpRecordFolders {
  customSessionFiles: string;
  terminalSessions: string;
}

export function ompRecordFolders(agentDir: string, options: OmpDirOptions = {}): OmpRecordFolders {
  const state = ompStateDir(agentDir, options);
  return { customSessionFiles: join(state, "custom-session-files"), terminalSessions: join(state, "terminal-sessions") };
}

async function filesIn(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).map((name) => join(folder, name));
  } catch {
    return [];
  }
}

async function textOf(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return "";
  }
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== "" && !rel.startsWith("..") && !isAbsolute(rel);
}

/** The session file a record names, resolved (whether it exists or not); undefined for an empty, unreadable or missing record. */
function targetOf(text: string, breadcrumb: boolean): string | undefined {
  if (!breadcrumb) {
    const path = text.trim();
    return path ? resolve(path) : undefined;
  }
  const [cwd, session] = text.split("\n").map((line) => line.trim());
  return cwd && session ? resolve(cwd, session) : undefined;
}

/**
 * The session file one record names (`record` inside one of `folders`), when it
 * lies outside omp's sessions root; undefined when the record is gone, empty,
 * names a file in the root, or is not in a record folder. The file may not exist
 * yet: omp records a file when it picks it, before its first write.
 */
export async function ompRecordTarget(record: string, folders: OmpRecordFolders, sessionsRoot: string): Promise<string | undefined> {
  const folder = dirname(record);
  if (folder !== folders.customSessionFiles && folder !== folders.terminalSessions) return undefined;
  if (basename(record).startsWith(".")) return undefined;
  const target = targetOf(await textOf(record), folder === folders.terminalSessions);
  return target && !inside(sessionsRoot, target) ? target : undefined;
}

/** Every record in the two folders and the file it names outside omp's sessions root (existing or not). */
export async function ompRecords(agentDir: string, options: OmpDirOptions = {}): Promise<Map<string, string>> {
  const folders = ompRecordFolders(agentDir, options);
  const root = ompSessionsRoot(agentDir, options);
  const records = new Map<string, string>();
  for (const record of [...(await filesIn(folders.customSessionFiles)), ...(await filesIn(folders.terminalSessions))]) {
    const target = await ompRecordTarget(record, folders, root);
    if (target) records.set(record, target);
  }
  return records;
}

/**
 * The existing session files omp recorded for `agentDir` that lie outside its
 * sessions root (those inside it are listed from the root), sorted, each once.
 */
export async function ompRecordedSessionFiles(agentDir: string, options: OmpDirOptions = {}): Promise<string[]> {
  return existingOf(new Set((await ompRecords(agentDir, options)).values()));
}

/** The files of `paths` that exist, sorted. */
export async function existingOf(paths: Iterable<string>): Promise<string[]> {
  const found: string[] = [];
  for (const path of paths) if (await isFile(path)) found.push(path);
  return found.sort();
}
