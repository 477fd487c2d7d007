// The catalogue on disk: one JSON file per default token rule in the cache folder,
// written whole through a temporary file and a rename (readers and a second
// writer never see half a file; the last writer wins, and a lost update only
// costs a re-read later). Every record is validated on load: a damaged file
// or record is dropped and rebuilt from the session files, never trusted.

import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../summarize/atomic-write.js";
import type { CatalogueRow, RowResume } from "./catalogue-row.js";
import { IdFilter } from "./id-filter.js";

export const CATALOGUE_FORMAT = "pi-sessions-catalogue";
/** 2: rows carry `pi1xMarker`, and sessions with one are counted by pi 1.5's rule. */
export const CATALOGUE_VERSION = 2;

/** What the row was computed from: the file's size, mtime and the hash of its last ≤ 4 KiB. */
export interface RecordKey {
  size: number;
  mtimeMs: number;
  tailHash: string;
  tailLength: number;
}

/** As kept in the rows file: the id filter lives in a side file, read only when an append needs it. */
export type StoredResume = Omit<RowResume, "ids"> & { ids?: IdFilter };

export type CatalogueRecord =
  | { path: string; key: RecordKey; kind: "session"; row: CatalogueRow; resume: StoredResume | null }
  /** A *.jsonl file that is not a session (no header): remembered so it is not read again until it changes. */
  | { path: string; key: RecordKey; kind: "other" };

export function catalogueFile(folder: string, ruleName: string): string {
  return join(folder, `catalogue-v${CATALOGUE_VERSION}-${ruleName.replace(/[^A-Za-z0-9.-]/g, "_")}.json`);
}

/** The side file of id filters (by path, each with the tail hash of the row it belongs to). */
export function idsFile(folder: string, ruleName: string): string {
  return catalogueFile(folder, ruleName).replace(/\.json$/, ".ids.json");
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strOrNull = (v: unknown): boolean => v === null || isStr(v);

function validKey(k: unknown): k is RecordKey {
  return isObj(k) && isNum(k.size) && k.size >= 0 && isNum(k.mtimeMs) && isStr(k.tailHash) && /^[0-9a-f]{64}$/.test(k.tailHash) && isNum(k.tailLength);
}

const NUMBER_FIELDS = ["entries", "messages", "lastActivity", "contextTokens", "contextMessages", "totalTokens", "input", "output", "cacheRead", "cacheWrite", "cost", "size", "mtimeMs"] as const;

function validRow(r: unknown, path: string): r is CatalogueRow {
  if (!isObj(r) || r.path !== path || !isStr(r.id) || !isStr(r.cwd) || !strOrNull(r.name) || !strOrNull(r.firstUserMessage) || !strOrNull(r.parentSession)) return false;
  if (!isStr(r.modified) || Number.isNaN(new Date(r.modified).getTime())) return false;
  if (r.contextSource !== "usage" && r.contextSource !== "estimate" && r.contextSource !== "estimate-after-compaction") return false;
  if (typeof r.hasCompactions !== "boolean") return false;
  if (r.pi1xMarker !== null && !(isObj(r.pi1xMarker) && isStr(r.pi1xMarker.entryId) && isNum(r.pi1xMarker.line) && isStr(r.pi1xMarker.what))) return false;
  if (r.model !== null && !(isObj(r.model) && isStr(r.model.provider) && isStr(r.model.modelId))) return false;
  return NUMBER_FIELDS.every((f) => isNum(r[f]));
}

/** The resume point of a stored record, or undefined when it is damaged. */
function resumeOf(r: unknown, size: number): StoredResume | null | undefined {
  if (r === null) return null;
  if (!(isObj(r) && r.offset === size && strOrNull(r.leafId) && typeof r.branchHasReset === "boolean" && (isNum(r.headerMs) || r.headerMs === null))) return undefined;
  return { offset: size, leafId: r.leafId as string | null, branchHasReset: r.branchHasReset, headerMs: r.headerMs ?? NaN };
}

/** One record as parsed from JSON (a file, another process), or undefined when it does not pass validation. */
export function validRecord(rec: unknown): CatalogueRecord | undefined {
  if (!isObj(rec) || !isStr(rec.path) || !validKey(rec.key)) return undefined;
  if (rec.kind === "other") return { path: rec.path, key: rec.key, kind: "other" };
  if (rec.kind === "session" && validRow(rec.row, rec.path) && rec.row.size === rec.key.size && rec.row.mtimeMs === rec.key.mtimeMs) {
    const resume = resumeOf(rec.resume, rec.key.size);
    if (resume !== undefined) return { path: rec.path, key: rec.key, kind: "session", row: rec.row, resume };
  }
  return undefined;
}

/** The records of a parsed catalogue file that pass validation (the rest are dropped). */
export function validRecords(data: unknown, ruleName: string): Map<string, CatalogueRecord> {
  const out = new Map<string, CatalogueRecord>();
  if (!isObj(data) || data.format !== CATALOGUE_FORMAT || data.version !== CATALOGUE_VERSION || data.rule !== ruleName || !Array.isArray(data.records)) return out;
  for (const rec of data.records as unknown[]) {
    const valid = validRecord(rec);
    if (valid) out.set(valid.path, valid);
  }
  return out;
}

/** The records on disk; an empty map when the file is missing, unreadable or damaged. */
export async function loadRecords(file: string, ruleName: string): Promise<Map<string, CatalogueRecord>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return new Map();
  }
  try {
    return validRecords(JSON.parse(text), ruleName);
  } catch {
    return new Map();
  }
}

export async function saveRecords(file: string, folder: string, ruleName: string, records: Iterable<CatalogueRecord>): Promise<void> {
  await mkdir(folder, { recursive: true });
  const list = [...records].map((r) => {
    if (r.kind !== "session" || !r.resume) return r;
    const { ids: _ids, ...resume } = r.resume;
    return { ...r, resume: { ...resume, headerMs: Number.isNaN(resume.headerMs) ? null : resume.headerMs } };
  });
  await writeFileAtomic(file, JSON.stringify({ format: CATALOGUE_FORMAT, version: CATALOGUE_VERSION, rule: ruleName, records: list }));
}

/** An id filter as stored: valid only for the row whose key has this size and tail hash. */
export interface StoredIds {
  size: number;
  tailHash: string;
  filter: IdFilter;
}

export async function loadIds(file: string, ruleName: string): Promise<Map<string, StoredIds>> {
  const out = new Map<string, StoredIds>();
  let data: unknown;
  try {
    data = JSON.parse(await readFile(file, "utf8"));
  } catch {
    return out;
  }
  if (!isObj(data) || data.format !== CATALOGUE_FORMAT || data.version !== CATALOGUE_VERSION || data.rule !== ruleName || !isObj(data.ids)) return out;
  for (const [path, v] of Object.entries(data.ids)) {
    if (!isObj(v) || !isNum(v.size) || !isStr(v.tailHash)) continue;
    const filter = IdFilter.fromJSON(v.filter);
    if (filter) out.set(path, { size: v.size, tailHash: v.tailHash, filter });
  }
  return out;
}

export async function saveIds(file: string, folder: string, ruleName: string, ids: Map<string, StoredIds>): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFileAtomic(file, JSON.stringify({ format: CATALOGUE_FORMAT, version: CATALOGUE_VERSION, rule: ruleName, ids: Object.fromEntries(ids) }));
}
