// Folding a list of touched files by folder, so a summary stays under its
// budget whatever the session touched: at a fold depth d, files deeper than d
// folders are shown as their folder at depth d with a count and the union of
// their ops letters; files at depth ≤ d stay named. Every file stays covered:
// named, or its folder named. The last level folds everything into one row.

import { counted } from "../text/counted";

export interface FoldItem {
  /** As shown (relative to the session cwd when inside it, else absolute). */
  displayPath: string;
  /** Letters from R W E M D ("" for a plain list such as pi's <read-files>). */
  ops: string;
}

export interface FoldRow {
  /** A file's display path, or a folder as `dir/`. */
  label: string;
  ops: string;
  /** Files behind the row (1 for a named file). */
  files: number;
  folder: boolean;
}

/** How deep folders are kept: a number of folder levels, or "all" (one row). */
export type FoldLevel = number | "all";

const OPS_ORDER = "RWEMD";

function unionOps(a: string, b: string): string {
  let out = "";
  for (const letter of OPS_ORDER) if (a.includes(letter) || b.includes(letter)) out += letter;
  return out;
}

/** Folder components of a display path ("/" first for an absolute path). */
function folderParts(displayPath: string): string[] {
  const absolute = displayPath.startsWith("/");
  const parts = displayPath.split("/").filter((p) => p !== "");
  parts.pop();
  return absolute ? ["/", ...parts] : parts;
}

function folderLabel(parts: readonly string[]): string {
  if (parts.length === 0) return "./";
  if (parts[0] === "/") return `/${parts.slice(1).map((p) => `${p}/`).join("")}`;
  return `${parts.join("/")}/`;
}

/** The deepest folder level among the items (a fold below it changes nothing). */
export function maxFolderDepth(items: readonly FoldItem[]): number {
  let depth = 0;
  for (const item of items) depth = Math.max(depth, folderParts(item.displayPath).length);
  return depth;
}

/** The fold levels to try, least folded first. */
export function foldLevels(items: readonly FoldItem[]): FoldLevel[] {
  const levels: FoldLevel[] = [];
  for (let d = maxFolderDepth(items); d >= 0; d--) levels.push(d);
  levels.push("all");
  return levels;
}

/** The folder row an item falls into at `level` (undefined: it is named), one level deeper inside an expanded folder. */
export function foldKey(displayPath: string, level: number, expanded?: ReadonlySet<string>): string | undefined {
  const parts = folderParts(displayPath);
  if (parts.length <= level) return undefined;
  const key = folderLabel(parts.slice(0, level));
  if (!expanded?.has(key)) return key;
  return parts.length <= level + 1 ? undefined : folderLabel(parts.slice(0, level + 1));
}

/** The rows at one fold level, in the order of each row's first file; folders in `expanded` are shown one level deeper. */
export function foldRows(items: readonly FoldItem[], level: FoldLevel, expanded?: ReadonlySet<string>): FoldRow[] {
  if (level === "all") {
    if (items.length === 0) return [];
    const ops = items.reduce((acc, item) => unionOps(acc, item.ops), "");
    return [{ label: "./", ops, files: items.length, folder: true }];
  }
  const rows: FoldRow[] = [];
  const groups = new Map<string, { row: FoldRow; first: FoldItem }>();
  for (const item of items) {
    const key = foldKey(item.displayPath, level, expanded);
    if (key === undefined) {
      rows.push({ label: item.displayPath, ops: item.ops, files: 1, folder: false });
      continue;
    }
    const group = groups.get(key);
    if (group) {
      group.row.ops = unionOps(group.row.ops, item.ops);
      group.row.files++;
      continue;
    }
    const row: FoldRow = { label: key, ops: item.ops, files: 1, folder: true };
    groups.set(key, { row, first: item });
    rows.push(row);
  }
  // A folder holding a single file shows the file itself (folding it saves nothing).
  return rows.map((row) => {
    if (!row.folder || row.files !== 1) return row;
    const first = groups.get(row.label)!.first;
    return { label: first.displayPath, ops: first.ops, files: 1, folder: false };
  });
}

/** One row as text: `OPS path` (ops padded to 2), folders with their count. */
export function formatFoldRow(row: FoldRow, withOps: boolean): string {
  const label = row.folder ? `${row.label} (${counted(row.files, "file")})` : row.label;
  return withOps ? `${row.ops.padEnd(2, " ")} ${label}` : label;
}

/** Whether a level folded anything. */
export function isFolded(rows: readonly FoldRow[]): boolean {
  return rows.some((row) => row.folder);
}
