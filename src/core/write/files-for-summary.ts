// The files-touched manifest around a summary: computed from session entries
// (the grounded collector, bash included), given to the model as an
// authoritative list for the span it summarises, and appended to the written
// summary for the whole branch (formatManifestBlock, after `---`).

import type { SessionEntry } from "../session/format/types.js";
import { collectFilesTouched, initFilesTouched, MANIFEST_LEGEND, type FilesTouched } from "../files-touched/index.js";
import { boundedPromptRows, DEFAULT_SUMMARY_BUDGET_TOKENS } from "./bounded-summary.js";

/** The <files-touched> list in a model's prompt is bounded too (half the summary's default budget). */
export const PROMPT_FILES_BUDGET_TOKENS = DEFAULT_SUMMARY_BUDGET_TOKENS / 2;

export interface FilesTouchedOptions {
  /** Append the manifest to compaction summaries (default true). */
  compaction: boolean;
  /** Append the manifest to branch summaries (default true). */
  branchSummary: boolean;
}

export const DEFAULT_FILES_TOUCHED: FilesTouchedOptions = { compaction: true, branchSummary: true };

export async function filesTouchedOf(entries: readonly SessionEntry[], cwd: string): Promise<FilesTouched> {
  await initFilesTouched();
  // A macrotask turn first: inside pi (the pi extension) each manifest is its own slice of
  // pi's event loop, not one block with the rest of the compaction's work.
  await new Promise<void>((resolve) => setImmediate(resolve));
  return collectFilesTouched(entries, { cwd });
}

/** The block appended to a model's prompt text: what it must not contradict. */
export function authoritativeFilesBlock(files: Pick<FilesTouched, "files">, budgetTokens = PROMPT_FILES_BUDGET_TOKENS): string {
  const { rows, folded } = boundedPromptRows(files, budgetTokens);
  return [
    "",
    "",
    "<files-touched>",
    "The files this part of the session touched, read from its tool calls by pi-sessions (not written by a model).",
    "This list is authoritative: do not contradict it, and do not say a file was changed unless it is listed here with W, E, M or D.",
    `Letters: ${MANIFEST_LEGEND}.`,
    ...(folded ? [`Too many files to list one by one (${files.files.length}): a row ending in "/ (N files)" stands for that many files in that folder, with the letters of all of them.`] : []),
    ...(rows.length > 0 ? rows : ["(no files touched)"]),
    "</files-touched>",
  ].join("\n");
}

/** The plain JSON form kept in the entry's details. */
export function filesTouchedDetails(files: Pick<FilesTouched, "files">): { path: string; displayPath: string; ops: string }[] {
  return files.files.map((f) => ({ path: f.path, displayPath: f.displayPath, ops: f.ops }));
}
