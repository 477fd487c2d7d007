// The per-session touch manifests on disk: one JSON file in the catalogue's
// folder, keyed like the catalogue's rows (path + size + mtime + hash of the
// last ≤ 4 KiB), written whole through a temporary file and a rename. Every
// record is validated on load; a damaged file or record is dropped and
// rebuilt from the session file, never trusted. Manifests are stored in the
// compact form of touch-manifest-codec.ts. Versioned twice: the file's
// layout, and the files-touched analysis that produced the actions.

import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { writeFileAtomic } from "../fs/atomic-write.js";
import { FILES_TOUCHED_ANALYSIS_VERSION } from "../files-touched/analysis-version";
import type { RecordKey } from "../catalogue/catalogue-file.js";
import { StoredTouchManifest } from "./touch-manifest-codec";

export const TOUCH_STORE_FORMAT = "pi-sessions-file-touches";
// 4: a read/write/edit whose result names the file omp resolved (details.resolvedPath) touches that file.
export const TOUCH_STORE_VERSION = 4;

/** What the manifest was computed from: the catalogue's key for the same file. */
export type TouchRecordKey = RecordKey;

export interface TouchRecord {
  path: string;
  key: TouchRecordKey;
  /** False for v1/v2 sessions (their entries are migrated in memory): any change reads them again. */
  incremental: boolean;
  manifest: StoredTouchManifest;
}

export function touchStoreFile(folder: string): string {
  return join(folder, `file-touches-v${TOUCH_STORE_VERSION}.json`);
}

const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const isStr = (v: unknown): v is string => typeof v === "string";
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function validKey(k: unknown): k is TouchRecordKey {
  return isObj(k) && isNum(k.size) && k.size >= 0 && isNum(k.mtimeMs) && isStr(k.tailHash) && /^[0-9a-f]{64}$/.test(k.tailHash) && isNum(k.tailLength) && k.tailLength >= 0 && k.tailLength <= k.size;
}

/** The records of a parsed store file that pass validation (the rest are dropped). */
export function validTouchRecords(data: unknown): Map<string, TouchRecord> {
  const out = new Map<string, TouchRecord>();
  if (!isObj(data) || data.format !== TOUCH_STORE_FORMAT || data.version !== TOUCH_STORE_VERSION || data.analysis !== FILES_TOUCHED_ANALYSIS_VERSION || !Array.isArray(data.records)) {
    return out;
  }
  for (const rec of data.records as unknown[]) {
    if (!isObj(rec) || !isStr(rec.path) || !validKey(rec.key) || typeof rec.incremental !== "boolean") continue;
    // The manifest itself is validated when first used (StoredTouchManifest): a damaged one is read again then.
    if (isObj(rec.manifest)) out.set(rec.path, { path: rec.path, key: rec.key, incremental: rec.incremental, manifest: StoredTouchManifest.fromDisk(rec.manifest) });
  }
  return out;
}

/** The records on disk; an empty map when the file is missing, unreadable or damaged. */
export async function loadTouchRecords(file: string): Promise<Map<string, TouchRecord>> {
  try {
    return validTouchRecords(JSON.parse(await readFile(file, "utf8")));
  } catch {
    return new Map();
  }
}

export async function saveTouchRecords(file: string, folder: string, records: Iterable<TouchRecord>): Promise<void> {
  await mkdir(folder, { recursive: true });
  const list = [...records].map((r) => ({ ...r, manifest: r.manifest.toJSON() }));
  await writeFileAtomic(file, JSON.stringify({ format: TOUCH_STORE_FORMAT, version: TOUCH_STORE_VERSION, analysis: FILES_TOUCHED_ANALYSIS_VERSION, records: list }));
}
