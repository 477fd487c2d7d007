// The memoised bash analyses on disk, in the cache folder beside the session
// catalogue, so a new process (a CLI run, VS Code after a restart) does not
// parse a command it has analysed before. One JSON file written whole through
// a temporary file and a rename; every entry is validated on load and a
// damaged file or entry is dropped (the command is analysed again), never
// trusted. Versioned by layout and by FILES_TOUCHED_ANALYSIS_VERSION.

import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.js";
import type { Diagnostic } from "../diagnostics";
import { isFileAction } from "./actions";
import { bashAnalysesAdded, bashAnalysisEntries, markBashAnalysesSaved, seedBashAnalysis, type BashAnalysis } from "./analyze-bash";
import { FILES_TOUCHED_ANALYSIS_VERSION } from "./analysis-version";

export const BASH_ANALYSES_FORMAT = "pi-sessions-bash-analyses";
export const BASH_ANALYSES_VERSION = 1;
/** Longer command strings (heredocs with whole files) are not worth a place on disk. */
const MAX_STORED_KEY = 16 * 1024;

export function bashAnalysesFile(folder: string): string {
  return join(folder, `bash-analyses-v${BASH_ANALYSES_VERSION}.json`);
}

function isDiagnostic(d: unknown): d is Diagnostic {
  if (typeof d !== "object" || d === null) return false;
  const v = d as Record<string, unknown>;
  return (v.severity === "error" || v.severity === "warning" || v.severity === "info") && typeof v.code === "string" && typeof v.message === "string";
}

function analysisOf(entry: unknown): [string, BashAnalysis] | undefined {
  if (!Array.isArray(entry) || entry.length !== 3) return undefined;
  const [key, actions, diagnostics] = entry as unknown[];
  if (typeof key !== "string" || key.split("\0").length < 3) return undefined;
  if (!Array.isArray(actions) || !actions.every(isFileAction) || !Array.isArray(diagnostics) || !diagnostics.every(isDiagnostic)) return undefined;
  return [key, { actions, diagnostics: diagnostics.map((d) => ({ severity: d.severity, code: d.code, message: d.message })) }];
}

/** Adds the analyses stored in `folder` to the memoised ones; returns how many were valid. A missing or damaged file adds none. */
export async function loadBashAnalyses(folder: string): Promise<number> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(bashAnalysesFile(folder), "utf8"));
  } catch {
    return 0;
  }
  if (typeof data !== "object" || data === null) return 0;
  const d = data as Record<string, unknown>;
  if (d.format !== BASH_ANALYSES_FORMAT || d.version !== BASH_ANALYSES_VERSION || d.analysis !== FILES_TOUCHED_ANALYSIS_VERSION || !Array.isArray(d.entries)) return 0;
  let valid = 0;
  for (const entry of d.entries as unknown[]) {
    const parsed = analysisOf(entry);
    if (!parsed) continue;
    seedBashAnalysis(parsed[0], parsed[1]);
    valid++;
  }
  return valid;
}

/** Writes the memoised analyses when some were added since the last load or save. */
export async function saveBashAnalyses(folder: string): Promise<void> {
  if (bashAnalysesAdded() === 0) return;
  const entries: [string, BashAnalysis["actions"], BashAnalysis["diagnostics"]][] = [];
  for (const [key, analysis] of bashAnalysisEntries()) if (key.length <= MAX_STORED_KEY) entries.push([key, analysis.actions, analysis.diagnostics]);
  await mkdir(folder, { recursive: true });
  await writeFileAtomic(bashAnalysesFile(folder), JSON.stringify({ format: BASH_ANALYSES_FORMAT, version: BASH_ANALYSES_VERSION, analysis: FILES_TOUCHED_ANALYSIS_VERSION, entries }));
  markBashAnalysesSaved();
}
