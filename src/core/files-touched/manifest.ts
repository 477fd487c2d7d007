// The manifest block appended to compaction and branch summaries, after
// MANIFEST_SEPARATOR. Same layout as the grounded-compaction extension for pi,
// so summaries written by either read alike.

import type { FilesTouched } from "./collect";

export const MANIFEST_SEPARATOR = "\n\n---\n\n";
export const MANIFEST_HEADING = "## Files touched (cumulative)";
export const MANIFEST_LEGEND = "R=read, W=write, E=edit, M=move/rename, D=delete";

export function formatManifestBlock(filesTouched: Pick<FilesTouched, "files">): string {
  const rows = filesTouched.files.map((f) => `${f.ops.padEnd(2, " ")} ${f.displayPath}`);
  return [MANIFEST_HEADING, MANIFEST_LEGEND, "", "```text", ...(rows.length ? rows : ["(no tracked files)"]), "```"].join("\n");
}

/** `summary` + separator + manifest block. */
export function appendManifest(summary: string, filesTouched: Pick<FilesTouched, "files">): string {
  return `${summary}${MANIFEST_SEPARATOR}${formatManifestBlock(filesTouched)}`;
}

/** Removes a manifest tail this module appended, so a summary can be updated without stacking manifests. */
export function stripManifest(summary: string): string {
  const at = summary.lastIndexOf(`${MANIFEST_SEPARATOR}${MANIFEST_HEADING}\n`);
  return at < 0 ? summary : summary.slice(0, at);
}
