// The record of one session file read in full: streamed when it can (no index
// of the file is built: a 100 MB session's would take ~250 MB of allocation),
// else skimmed. Shared by the catalogue and the child process that fills it.
// omp's count kept over appends goes to `keepCount` (memory), never into the record.

import { openSessionSync } from "../session/open/open-session.js";
import type { CatalogueRecord, RecordKey } from "./catalogue-file.js";
import { rowFromSession, type ComputedRow, type RowVersion } from "./catalogue-row.js";
import type { IncrementalUsage } from "../tokens/context-token-rule.js";
import { streamRow } from "./streamed-row.js";

/**
 * Throws when the file cannot be read. `sumAhead`: a pi 1.5 row keeps pi's projected sum even when its
 * count did not need it (one more parse of the branch; for a live session, see sum-ahead.ts). `upTo`: the
 * file's first bytes only when it is streamed (a skimmed read takes the whole file: check the key's size).
 */
export function readRecord(path: string, versionOf: RowVersion, options: { sumAhead?: boolean; upTo?: number; keepCount?: (count: IncrementalUsage) => void } = {}): CatalogueRecord {
  const streamed = streamRow(path, versionOf, options);
  if (streamed) {
    if (!streamed.computed) return { path, key: streamed.key, kind: "other" };
    return { path, key: streamed.key, kind: "session", ...withoutCount(streamed.computed, options.keepCount) };
  }
  // Skimmed: a list row needs the index's fields, not every byte of every tool output validated.
  const session = openSessionSync(path, { skim: true });
  const fp = session.fingerprint;
  // The inode the read was made from (the session keeps its file's stat).
  const ino = (session as { fileStat?: { ino: number } }).fileStat?.ino;
  const key: RecordKey = { size: fp.size, mtimeMs: fp.mtimeMs, tailHash: fp.tailHash, tailLength: fp.tailLength, ...(ino ? { ino } : {}) };
  const computed = rowFromSession(session, fp.size, fp.mtimeMs, versionOf, options.sumAhead === true);
  if (!computed) return { path, key, kind: "other" };
  return { path, key, kind: "session", ...withoutCount(computed, options.keepCount) };
}

/** The row and resume a record keeps (its log persists them); the in-memory count handed to `keep`. */
function withoutCount(computed: ComputedRow, keep?: (count: IncrementalUsage) => void): Omit<ComputedRow, "count"> {
  if (computed.count) keep?.(computed.count);
  return { row: computed.row, resume: computed.resume };
}
