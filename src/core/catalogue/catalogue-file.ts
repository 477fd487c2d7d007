// A catalogue record and its validation: every record read from disk (the
// log, catalogue-log.ts) or from another process (bulk-reader.ts) passes here;
// a damaged one is dropped and its session file read again, never trusted.

import type { CatalogueRow, RowResume } from "./catalogue-row.js";
import { IdFilter } from "./id-filter.js";
import { validProjectedResume } from "./projected-resume.js";
import { validSpendSlots } from "./spend-slots.js";

export const CATALOGUE_FORMAT = "pi-sessions-catalogue";
/**
 * 2: rows carry `pi1xMarker`, and sessions with one are counted by pi 1.5's rule. 3: a log of checksummed lines, id filters inline.
 * 4: rows carry `spend` (by 15-minute slot, kind and model: spend-slots.ts).
 * 5: rows carry `newestEntry` (a session's last activity counts every entry, ours too).
 * 6: rows carry `agent` and `ompTitle`.
 */
export const CATALOGUE_VERSION = 6;

/** What the row was computed from: the file's size, mtime and the hash of its last ≤ 4 KiB. */
export interface RecordKey {
  size: number;
  mtimeMs: number;
  tailHash: string;
  tailLength: number;
  /** The file's inode: another file at the path (omp's atomic rewrite) is read again, never carried over. */
  ino?: number;
}

/** As stored: a record without its id filter (damaged, or not sent) cannot be carried over an append. */
export type StoredResume = Omit<RowResume, "ids"> & { ids?: IdFilter };

export type CatalogueRecord =
  | { path: string; key: RecordKey; kind: "session"; row: CatalogueRow; resume: StoredResume | null }
  /** A *.jsonl file that is not a session (no header): remembered so it is not read again until it changes. */
  | { path: string; key: RecordKey; kind: "other" };

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strOrNull = (v: unknown): boolean => v === null || isStr(v);

export function validKey(k: unknown): k is RecordKey {
  return isObj(k) && isNum(k.size) && k.size >= 0 && isNum(k.mtimeMs) && isStr(k.tailHash) && /^[0-9a-f]{64}$/.test(k.tailHash) && isNum(k.tailLength) && (k.ino === undefined || isNum(k.ino));
}

const NUMBER_FIELDS = ["entries", "messages", "lastActivity", "newestEntry", "contextTokens", "contextMessages", "totalTokens", "input", "output", "cacheRead", "cacheWrite", "cost", "size", "mtimeMs"] as const;

function validRow(r: unknown, path: string): r is CatalogueRow {
  if (!isObj(r) || r.path !== path || !isStr(r.id) || !isStr(r.cwd) || !strOrNull(r.name) || !strOrNull(r.firstUserMessage) || !strOrNull(r.parentSession)) return false;
  if (!isStr(r.modified) || Number.isNaN(new Date(r.modified).getTime())) return false;
  if (r.contextSource !== "usage" && r.contextSource !== "estimate" && r.contextSource !== "estimate-after-compaction") return false;
  if (typeof r.hasCompactions !== "boolean") return false;
  if ((r.agent !== "pi" && r.agent !== "omp") || !strOrNull(r.ompTitle)) return false;
  if (r.pi1xMarker !== null && !(isObj(r.pi1xMarker) && isStr(r.pi1xMarker.entryId) && isNum(r.pi1xMarker.line) && isStr(r.pi1xMarker.what))) return false;
  if (r.model !== null && !(isObj(r.model) && isStr(r.model.provider) && isStr(r.model.modelId))) return false;
  if (!validSpendSlots(r.spend)) return false;
  return NUMBER_FIELDS.every((f) => isNum(r[f]));
}

/** The resume point of a stored record, or undefined when it is damaged. */
function resumeOf(r: unknown, size: number): StoredResume | null | undefined {
  if (r === null) return null;
  if (!(isObj(r) && r.offset === size && strOrNull(r.leafId) && typeof r.branchHasReset === "boolean" && (isNum(r.headerMs) || r.headerMs === null))) return undefined;
  const resume: StoredResume = { offset: size, leafId: r.leafId as string | null, branchHasReset: r.branchHasReset, headerMs: r.headerMs ?? NaN };
  if (r.editsAhead !== undefined && r.editsAhead !== true) return undefined;
  if (r.editsAhead === true) resume.editsAhead = true;
  if (r.projected !== undefined) {
    const projected = validProjectedResume(r.projected);
    if (!projected) return undefined;
    resume.projected = projected;
  }
  return resume;
}

/** Strings many rows repeat (cwd, provider, model), one copy each: a parsed record brings its own. */
const shared = new Map<string, string>();
const SHARED_LIMIT = 4096;

function intern(text: string): string {
  const known = shared.get(text);
  if (known !== undefined) return known;
  if (shared.size >= SHARED_LIMIT) shared.clear();
  shared.set(text, text);
  return text;
}

/** One record as parsed from JSON (a file, another process), or undefined when it does not pass validation. */
export function validRecord(rec: unknown): CatalogueRecord | undefined {
  if (!isObj(rec) || !isStr(rec.path) || !validKey(rec.key)) return undefined;
  if (rec.kind === "other") return { path: rec.path, key: rec.key, kind: "other" };
  if (rec.kind === "session" && validRow(rec.row, rec.path) && rec.row.size === rec.key.size && rec.row.mtimeMs === rec.key.mtimeMs) {
    const resume = resumeOf(rec.resume, rec.key.size);
    if (resume === undefined) return undefined;
    // The same text as the record's path (validRow checked): one string for both.
    const row = rec.row;
    row.path = rec.path;
    row.cwd = intern(row.cwd);
    if (row.model) row.model = { ...row.model, provider: intern(row.model.provider), modelId: intern(row.model.modelId) };
    row.spend.models = row.spend.models.map(intern);
    return { path: rec.path, key: rec.key, kind: "session", row, resume };
  }
  return undefined;
}

/** A record as stored (the log, a child's answer): validated, its id filter decoded; undefined when any of it is damaged. */
export function validStoredRecord(rec: unknown): CatalogueRecord | undefined {
  const record = validRecord(rec);
  if (!record || record.kind !== "session" || !record.resume) return record;
  const stored = isObj(rec) && isObj(rec.resume) ? rec.resume.ids : undefined;
  if (stored === undefined) return record;
  const ids = IdFilter.fromJSON(stored);
  if (!ids) return undefined;
  record.resume.ids = ids;
  return record;
}
