// In-memory migration of version 1 and 2 session entries to version 3, the way
// pi 0.73's migrateV1ToV2 / migrateV2ToV3 (session-manager.js) do it, with one
// documented deviation: ids are deterministic instead of random, so the same
// file always shows the same ids (pi's are random because pi rewrites the file
// right after migrating; we never touch the file when reading).

import { createHash } from "node:crypto";
import { CURRENT_SESSION_VERSION } from "./types.js";

/**
 * The id the `entryIndex`-th entry (0-based, header excluded) of a version 1 file
 * gets: the first 8 hex digits of sha256("<header id>:<entryIndex>"); on a clash
 * with an id already given, ":1", ":2", … are appended to the hashed text.
 */
export function deterministicEntryId(headerId: string, entryIndex: number, taken: ReadonlySet<string>): string {
  for (let attempt = 0; ; attempt++) {
    const text = attempt === 0 ? `${headerId}:${entryIndex}` : `${headerId}:${entryIndex}:${attempt}`;
    const id = createHash("sha256").update(text).digest("hex").slice(0, 8);
    if (!taken.has(id)) return id;
  }
}

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * pi's version decision: `header.version ?? 1`, compared with JS's `<`/`>=`
 * (so "2" counts as 2, and a non-numeric version migrates nothing).
 */
export function versionOfHeader(header: JsonObject | null): number {
  const raw = header?.version ?? 1;
  return Number(raw);
}

export function needsMigration(version: number): boolean {
  return !(version >= CURRENT_SESSION_VERSION);
}

export interface MigrationResult {
  /** Whether anything was migrated (pi's migrateToCurrentVersion return value). */
  migrated: boolean;
  fromVersion: number;
}

/**
 * Migrates, in place, the parsed lines of a file (every line JSON.parse accepted,
 * in order, header included: pi's `entries` array, whose positions
 * `firstKeptEntryIndex` refers to). Values that are not objects are left alone
 * and get no id (pi would throw on a primitive and give an array an id).
 */
export function migrateParsedLines(lines: unknown[]): MigrationResult {
  const header = (lines.find((e) => isObject(e) && e.type === "session") as JsonObject | undefined) ?? null;
  const version = versionOfHeader(header);
  if (!needsMigration(version)) return { migrated: false, fromVersion: version };
  if (version < 2) migrateV1ToV2(lines, typeof header?.id === "string" ? header.id : "");
  if (version < 3) migrateV2ToV3(lines);
  return { migrated: true, fromVersion: version };
}

function migrateV1ToV2(lines: unknown[], headerId: string): void {
  const ids = new Set<string>();
  let prevId: string | null = null;
  let entryIndex = 0;
  for (const entry of lines) {
    if (!isObject(entry)) continue;
    if (entry.type === "session") {
      entry.version = 2;
      continue;
    }
    const id = deterministicEntryId(headerId, entryIndex++, ids);
    ids.add(id);
    entry.id = id;
    entry.parentId = prevId;
    prevId = id;
    if (entry.type === "compaction" && typeof entry.firstKeptEntryIndex === "number") {
      // Same lookup as pi: a position in the whole parsed file, header included,
      // read now (so a later entry still has its pre-migration id, if any).
      const target: unknown = lines[entry.firstKeptEntryIndex];
      if (target && (target as { type?: unknown }).type !== "session") {
        entry.firstKeptEntryId = (target as { id?: unknown }).id;
      }
      delete entry.firstKeptEntryIndex;
    }
  }
}

function migrateV2ToV3(lines: unknown[]): void {
  for (const entry of lines) {
    if (!isObject(entry)) continue;
    if (entry.type === "session") {
      entry.version = 3;
      continue;
    }
    if (entry.type === "message" && isObject(entry.message) && entry.message.role === "hookMessage") {
      entry.message.role = "custom";
    }
  }
}
