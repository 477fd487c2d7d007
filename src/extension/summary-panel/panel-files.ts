// The manifest rows the webview shows: absolute paths, display paths, and
// the deleted / outside / open marks as they are now. Pure (no vscode): the
// file system and the open tabs come in through FileMarksContext.

import { isAbsolute, join, normalize, relative, sep } from "node:path";
import { FILE_OPS, LIMITS, type SummaryFile } from "../../webview/protocol";
import type { RecordedFile } from "./summary-entry";

export interface FileMarksContext {
  /** The session header's cwd (relative paths are resolved against it). */
  sessionCwd: string | undefined;
  /** Absolute paths of the workspace folders. */
  workspaceRoots: readonly string[];
  /** Absolute paths open in an editor tab. */
  openPaths: ReadonlySet<string>;
  exists(path: string): boolean;
  homeDir: string;
}

/** Letters of RWEMD in manifest order, each once; anything else dropped. */
export function normalizeOps(ops: string): string {
  return FILE_OPS.filter((op) => ops.includes(op)).join("");
}

/**
 * The absolute path of a manifest row: `~/…` under the home folder, relative
 * paths against the session cwd. Undefined when it cannot be known (a
 * RepoPrompt `Root:rel` path whose root is unknown, or relative without a cwd).
 */
export function resolveManifestPath(path: string, ctx: Pick<FileMarksContext, "sessionCwd" | "homeDir">): string | undefined {
  if (path === "~") return normalize(ctx.homeDir);
  if (path.startsWith("~/")) return join(ctx.homeDir, path.slice(2));
  if (isAbsolute(path)) return normalize(path);
  if (/^[^/\\]+:/.test(path)) return undefined;
  return ctx.sessionCwd && isAbsolute(ctx.sessionCwd) ? join(ctx.sessionCwd, path) : undefined;
}

/** `path` is `dir` or lies inside it. */
export function isWithin(path: string, dir: string): boolean {
  const rel = relative(normalize(dir), path);
  return rel === "" || (!rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel));
}

function displayPathFor(path: string, ctx: FileMarksContext): string {
  const bases = [ctx.sessionCwd, ...ctx.workspaceRoots].filter((dir): dir is string => !!dir && isAbsolute(dir));
  for (const base of bases) {
    if (path !== normalize(base) && isWithin(path, base)) return relative(normalize(base), path);
  }
  return path;
}

/**
 * Rows in the given order (the collector's: newest first), one per path (ops
 * of repeated paths merged). Paths that cannot be resolved keep their text,
 * are `outside`, and the host refuses to open them.
 */
export function toSummaryFiles(files: readonly RecordedFile[], ctx: FileMarksContext): SummaryFile[] {
  const rows = new Map<string, SummaryFile>();
  const insideDirs = [ctx.sessionCwd, ...ctx.workspaceRoots].filter((dir): dir is string => !!dir && isAbsolute(dir));
  for (const file of files) {
    const resolved = resolveManifestPath(file.path, ctx);
    const path = resolved ?? file.path;
    if (path.length === 0 || path.length > LIMITS.pathChars || rows.size >= LIMITS.files) continue;
    const ops = normalizeOps(file.ops);
    const previous = rows.get(path);
    if (previous) {
      previous.ops = normalizeOps(previous.ops + ops);
      previous.deleted = previous.ops.includes("D") && resolved !== undefined && !ctx.exists(path);
      continue;
    }
    const displayPath = resolved ? displayPathFor(path, ctx) : file.path;
    rows.set(path, {
      path,
      displayPath: displayPath.length > 0 && displayPath.length <= LIMITS.pathChars ? displayPath : path,
      ops,
      deleted: ops.includes("D") && resolved !== undefined && !ctx.exists(path),
      outside: resolved === undefined || !insideDirs.some((dir) => isWithin(path, dir)),
      open: ctx.openPaths.has(path),
    });
  }
  return [...rows.values()];
}

/** The rows with their `open` marks set from the tabs open now. */
export function withOpenMarks(files: readonly SummaryFile[], openPaths: ReadonlySet<string>): SummaryFile[] {
  return files.map((file) => (file.open === openPaths.has(file.path) ? file : { ...file, open: !file.open }));
}

/** pi's lists (branch summaries written by pi): read files as R; modified files as E (pi does not tell a write from an edit). */
export function filesFromPiLists(lists: { readFiles: readonly string[]; modifiedFiles: readonly string[] }): RecordedFile[] {
  return [...lists.modifiedFiles.map((path) => ({ path, ops: "E" })), ...lists.readFiles.map((path) => ({ path, ops: "R" }))];
}
