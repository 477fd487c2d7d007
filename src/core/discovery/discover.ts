// Finding session files: pi's folder for a project, *.jsonl session files
// under directories, and a cheap summary of one file for lists.

import { closeSync, openSync, readSync, statSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { firstUserMessageText, sessionModifiedDate } from "../session/open/session-info.js";
import { openSession } from "../session/open/open-session.js";
import { sessionPi1xMarker, type Pi1xMarker } from "../session/dialect/pi1x-markers.js";
import { titleSlotOf } from "../session/format/title-slot.js";

/** pi's agent dir: `$PI_CODING_AGENT_DIR` (a leading `~` or `~/` expanded, as pi does) or `~/.pi/agent`. */
export function defaultAgentDir(env: Readonly<Record<string, string | undefined>> = process.env, home = homedir()): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (dir) {
    if (dir === "~") return home;
    if (dir.startsWith("~/")) return home + dir.slice(1);
    return dir;
  }
  return join(home, ".pi", "agent");
}

/** pi's getDefaultSessionDir for a cwd, without creating it (pi does mkdir; we only read). */
export function piSessionDirForCwd(cwd: string, agentDir: string): string {
  const safePath = `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
  return join(agentDir, "sessions", safePath);
}

/**
 * Every folder pi keeps sessions in: the directories (or symlinks to them, as
 * pi 1.5.2's SessionManager.listAll follows) directly under
 * `<agentDir>/sessions/`, one per project cwd, sorted; [] when there is none.
 * The one place that enumerates them (the catalogue, `list --all`, search).
 */
export async function piSessionFolders(agentDir: string): Promise<string[]> {
  const root = join(agentDir, "sessions");
  let items;
  try {
    items = await readdir(root, { withFileTypes: true });
  } catch {
    return [];
  }
  const folders: string[] = [];
  for (const item of items) {
    const path = join(root, item.name);
    if (item.isDirectory()) folders.push(path);
    else if (item.isSymbolicLink()) {
      try {
        if ((await stat(path)).isDirectory()) folders.push(path);
      } catch {
        // A dangling link: nothing to list.
      }
    }
  }
  return folders.sort();
}

/** The `*.jsonl` files directly in each folder, sorted, each once. */
export async function jsonlFilesInFolders(folders: readonly string[]): Promise<string[]> {
  const lists = await Promise.all(folders.map((folder) => jsonlFilesIn(folder)));
  return [...new Set(lists.flat())].sort();
}

/** The `*.jsonl` files directly in a folder (as pi's SessionManager.list reads one), sorted; no header check. */
export async function jsonlFilesIn(folder: string): Promise<string[]> {
  let items;
  try {
    items = await readdir(folder, { withFileTypes: true });
  } catch {
    return [];
  }
  return items
    .filter((i) => i.name.endsWith(".jsonl") && (i.isFile() || i.isSymbolicLink()))
    .map((i) => join(folder, i.name))
    .sort();
}

const HEADER_PROBE_BYTES = 512;
/** A first line longer than this is not taken for a header. */
const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * Whether the file's first line is a session header (`type` "session", string `id`),
 * or omp's title slot followed by one.
 * Like pi's isValidSessionFile, but a first line longer than pi's 512-byte probe
 * is read to its end, and a BOM and blank lines before it are skipped (pi's load trims them).
 */
export function isSessionFile(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return false;
  }
  try {
    let bytes = Buffer.alloc(0);
    let position = 0;
    let size = HEADER_PROBE_BYTES;
    for (;;) {
      const chunk = Buffer.allocUnsafe(size);
      const n = readSync(fd, chunk, 0, size, position);
      bytes = Buffer.concat([bytes, chunk.subarray(0, n)]);
      position += n;
      let text = bytes.toString("utf8").replace(/^[\s\uFEFF]+/, "");
      let nl = text.indexOf("\n");
      // omp's title slot on line 1: the header is the next line.
      if (nl >= 0 && isTitleSlotText(text.slice(0, nl))) {
        text = text.slice(nl + 1).replace(/^\s+/, "");
        nl = text.indexOf("\n");
      }
      if (nl >= 0 || n === 0) return isHeaderText(nl >= 0 ? text.slice(0, nl) : text);
      if (position >= MAX_HEADER_BYTES) return false;
      size = Math.min(size * 4, MAX_HEADER_BYTES - position);
    }
  } catch {
    return false;
  } finally {
    closeSync(fd);
  }
}

function isTitleSlotText(line: string): boolean {
  try {
    return titleSlotOf(JSON.parse(line.trim())) !== undefined;
  } catch {
    return false;
  }
}

function isHeaderText(line: string): boolean {
  try {
    const header = JSON.parse(line.trim()) as { type?: unknown; id?: unknown } | null;
    return typeof header === "object" && header !== null && header.type === "session" && typeof header.id === "string";
  } catch {
    return false;
  }
}

export interface FindSessionFilesOptions {
  /** Only paths for which this returns true. */
  include?: (path: string) => boolean;
  /** Skip paths (files or directories) for which this returns true. */
  exclude?: (path: string) => boolean;
  /** How many directory levels below each dir to look (default 8). */
  maxDepth?: number;
}

const SKIPPED_DIRS = new Set(["node_modules", ".git"]);

/**
 * `*.jsonl` files under `dirs` whose first line is a session header, sorted, without
 * duplicates. Missing dirs are skipped; symlinked directories are not followed.
 */
export async function findSessionFiles(dirs: readonly string[], options: FindSessionFilesOptions = {}): Promise<string[]> {
  const maxDepth = options.maxDepth ?? 8;
  const found = new Set<string>();
  const walk = async (dir: string, depth: number): Promise<void> => {
    let items;
    try {
      items = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const item of items) {
      const path = join(dir, item.name);
      if (options.exclude?.(path)) continue;
      if (item.isDirectory()) {
        if (depth < maxDepth && !SKIPPED_DIRS.has(item.name)) await walk(path, depth + 1);
      } else if (item.name.endsWith(".jsonl") && (item.isFile() || item.isSymbolicLink())) {
        if (options.include && !options.include(path)) continue;
        if (isSessionFile(path)) found.add(path);
      }
    }
  };
  for (const dir of dirs) await walk(dir, 0);
  return [...found].sort();
}

export interface SessionFileSummary {
  path: string;
  id: string;
  cwd: string;
  /** pi's session name (last session_info, trimmed), or null. */
  name: string | null;
  /** Entries (header excluded). */
  entries: number;
  /** Message entries, as pi's session list counts them. */
  messageCount: number;
  /** pi's getSessionModifiedDate: last user/assistant activity, else header time, else mtime. */
  modified: Date;
  /** Text of the first user message with text (pi's firstMessage), or null. */
  firstUserMessage: string | null;
  /** The first pi 1.x marker (system message, context_edit, usage, compaction systemMessage), or null. */
  pi1xMarker: Pi1xMarker | null;
}

/** A list row for one session file (metas only, plus the first user message's body); null if it has no header. */
export async function summarizeSessionFile(path: string): Promise<SessionFileSummary | null> {
  const session = await openSession(path);
  const header = session.header;
  if (!header || session.headerMissing) return null;
  const messageCount = session.index.messageCount;
  return {
    path,
    id: header.id,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    name: session.index.sessionName ?? null,
    entries: session.index.size,
    messageCount,
    modified: sessionModifiedDate(session, () => statSync(path).mtime),
    firstUserMessage: firstUserMessageText(session),
    pi1xMarker: sessionPi1xMarker(session) ?? null,
  };
}
