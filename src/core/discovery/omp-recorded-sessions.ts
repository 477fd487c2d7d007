// Session files omp keeps outside its sessions root (`--session-dir DIR`,
// `$PI_CODING_AGENT_SESSION_DIR`, `--session PATH`, a fork into another
// folder) and records so `omp gc` can find them: every session manager, when it
// picks a file, writes `<state>/custom-session-files/<hash>` holding the file's
// absolute path unless the file is a `.jsonl` under the default sessions root,
// and a terminal breadcrumb `<state>/terminal-sessions/<tty>` holding the cwd
// and the session path (relative to the cwd) on its first two lines. omp's gc
// reads both folders the same way (trimmed lines, resolved, existing files).

import { readdir, readFile, stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve } from "node:path";
import { ompStateDir, ompSessionsRoot, type OmpDirOptions } from "../agent/omp-18/omp-dirs.js";

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

/**
 * The existing session files omp recorded for `agentDir` that lie outside its
 * sessions root (those inside it are listed from the root), sorted, each once.
 */
export async function ompRecordedSessionFiles(agentDir: string, options: OmpDirOptions = {}): Promise<string[]> {
  const state = ompStateDir(agentDir, options);
  const candidates = new Set<string>();
  for (const record of await filesIn(join(state, "custom-session-files"))) {
    const path = (await textOf(record)).trim();
    if (path) candidates.add(resolve(path));
  }
  for (const crumb of await filesIn(join(state, "terminal-sessions"))) {
    const [cwd, session] = (await textOf(crumb)).split("\n").map((line) => line.trim());
    if (cwd && session) candidates.add(resolve(cwd, session));
  }
  const root = ompSessionsRoot(agentDir, options);
  const found: string[] = [];
  for (const path of candidates) if (!inside(root, path) && (await isFile(path))) found.push(path);
  return found.sort();
}
