// The manifest block appended to compaction and branch summaries, after
// MANIFEST_SEPARATOR. Same layout as the grounded-compaction extension for pi,
// so summaries written by either read alike.

import type { FilesTouched } from "./collect";
import { foldRows, formatFoldRow, isFolded, type FoldLevel } from "./fold-rows";
import { counted } from "../text/counted";

export const MANIFEST_SEPARATOR = "\n\n---\n\n";
export const MANIFEST_HEADING = "## Files touched (cumulative)";
export const MANIFEST_LEGEND = "R=read, W=write, E=edit, M=move/rename, D=delete";

/** Says, in the summary itself, that rows stand for folders (never a silent drop). */
export function foldNotice(files: number, rows: number): string {
  return `Folded by folder to keep this summary within its budget: ${counted(files, "file")} in ${counted(rows, "row")} (a folder row counts its files); every file is listed in this entry's details.`;
}

/** The block; `level` folds rows by folder (default: every file named). */
export function formatManifestBlock(filesTouched: Pick<FilesTouched, "files">, level: FoldLevel = Number.POSITIVE_INFINITY, expanded?: ReadonlySet<string>): string {
  const folded = foldRows(filesTouched.files, level, expanded);
  const rows = folded.map((row) => formatFoldRow(row, true));
  const notice = isFolded(folded) ? [foldNotice(filesTouched.files.length, folded.length)] : [];
  return [MANIFEST_HEADING, MANIFEST_LEGEND, ...notice, "", "```text", ...(rows.length ? rows : ["(no tracked files)"]), "```"].join("\n");
}

/** `summary` + separator + manifest block. */
export function appendManifest(summary: string, filesTouched: Pick<FilesTouched, "files">, level?: FoldLevel, expanded?: ReadonlySet<string>): string {
  return `${summary}${MANIFEST_SEPARATOR}${formatManifestBlock(filesTouched, level, expanded)}`;
}

/** Removes a manifest tail this module appended, so a summary can be updated without stacking manifests. */
export function stripManifest(summary: string): string {
  const at = summary.lastIndexOf(`${MANIFEST_SEPARATOR}${MANIFEST_HEADING}\n`);
  return at < 0 ? summary : summary.slice(0, at);
}
