// The files-touched manifest around a summary: computed from session entries
// (the grounded collector, bash included), given to the model as an
// authoritative list for the span it summarises, and appended to the written
// summary for the whole branch (formatManifestBlock, after `---`).

import type { SessionEntry } from "../session/format/types.js";
import { collectFilesTouched, initFilesTouched, MANIFEST_LEGEND, type FilesTouched } from "../files-touched/index.js";

export interface FilesTouchedOptions {
  /** Append the manifest to compaction summaries (default true). */
  compaction: boolean;
  /** Append the manifest to branch summaries (default true). */
  branchSummary: boolean;
}

export const DEFAULT_FILES_TOUCHED: FilesTouchedOptions = { compaction: true, branchSummary: true };

export async function filesTouchedOf(entries: readonly SessionEntry[], cwd: string): Promise<FilesTouched> {
  await initFilesTouched();
  return collectFilesTouched(entries, { cwd });
}

/** The block appended to a model's prompt text: what it must not contradict. */
export function authoritativeFilesBlock(files: Pick<FilesTouched, "files">): string {
  const rows = files.files.map((f) => `${f.ops.padEnd(2, " ")} ${f.displayPath}`);
  return [
    "",
    "",
    "<files-touched>",
    "The files this part of the session touched, read from its tool calls by pi-sessions (not written by a model).",
    "This list is authoritative: do not contradict it, and do not say a file was changed unless it is listed here with W, E, M or D.",
    `Letters: ${MANIFEST_LEGEND}.`,
    ...(rows.length > 0 ? rows : ["(no files touched)"]),
    "</files-touched>",
  ].join("\n");
}

/** The plain JSON form kept in the entry's details. */
export function filesTouchedDetails(files: Pick<FilesTouched, "files">): { path: string; displayPath: string; ops: string }[] {
  return files.files.map((f) => ({ path: f.path, displayPath: f.displayPath, ops: f.ops }));
}
