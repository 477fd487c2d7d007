// The counts a rule without `extend` (omp's) keeps to carry a listed row over
// appends (`IncrementalUsage`), in memory only: a few totals and a small window
// per row, for the rows read or carried most recently. Each is valid for its
// record as it stands (the size its resume ends at) and for the file's first
// bytes as they were (omp rewrites its title slot in place, at the start of the
// file: a row is never carried over that). Taken out to be used: a count the
// carry did not return (a compaction, a `/clear`, a branch switch, a failure)
// is gone, and the file is read in full, as after a restart.

import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync } from "node:fs";
import { readRange } from "../session/bytes/read-range.js";
import type { IncrementalUsage } from "../tokens/context-token-rule.js";
import type { RecordKey } from "./catalogue-file.js";

/** Rows whose counts are kept (the most recently read or carried). */
export const KEPT_COUNTS = 32;
/** The file's first bytes a carried row checks unchanged: omp's 256-byte title slot, rewritten in place. */
export const HEAD_BYTES = 256;

interface KeptCount {
  count: IncrementalUsage;
  /** The size of the file the count is up to (the record's resume offset). */
  offset: number;
  /** Hash of the file's first min(HEAD_BYTES, offset) bytes then. */
  head: string;
}

/** Hash of the file's first min(HEAD_BYTES, size) bytes (`fd` open for reading). */
export function headHash(fd: number, size: number): string {
  return createHash("sha256").update(readRange(fd, 0, Math.min(HEAD_BYTES, size))).digest("hex");
}

/** A count taken to carry a row: `head` is the file's head as checked (the one to keep it with again). */
export interface TakenCount {
  count: IncrementalUsage;
  head: string;
}

export class RowCounts {
  private readonly kept = new Map<string, KeptCount>();

  constructor(private readonly limit = KEPT_COUNTS) {}

  get size(): number {
    return this.kept.size;
  }

  /** Keeps `count` for `path`, up to `offset` with the file's head `head` (the least recently kept one dropped past the limit). */
  keep(path: string, count: IncrementalUsage, offset: number, head: string): void {
    this.kept.delete(path);
    this.kept.set(path, { count, offset, head });
    if (this.kept.size > this.limit) this.kept.delete(this.kept.keys().next().value!);
  }

  /**
   * Keeps the count a full read of `path` left, when the file is still the one read (`key`: same inode,
   * size and mtime; a write since, the title slot's too, changes the mtime): its head hashed now is the one read.
   */
  keepRead(path: string, count: IncrementalUsage, key: RecordKey, offset: number): void {
    const fd = openSync(path, "r");
    try {
      const st = fstatSync(fd);
      if (st.size !== key.size || st.mtimeMs !== key.mtimeMs || (key.ino !== undefined && st.ino !== key.ino)) return;
      this.keep(path, count, offset, headHash(fd, offset));
    } finally {
      closeSync(fd);
    }
  }

  /** The count for `path` when it is up to `offset` and the head of the file (`fd`) is as it was (removed either way). */
  take(path: string, offset: number, fd: number): TakenCount | undefined {
    const kept = this.kept.get(path);
    if (!kept) return undefined;
    this.kept.delete(path);
    if (kept.offset !== offset) return undefined;
    const head = headHash(fd, offset);
    return kept.head === head ? { count: kept.count, head } : undefined;
  }

  /** The head a count carried to `size` is kept with: the one checked when taken, unless the file was shorter than the head then. */
  static headAfter(fd: number, taken: TakenCount, offset: number, size: number): string {
    return offset >= HEAD_BYTES ? taken.head : headHash(fd, size);
  }

  forget(path: string): void {
    this.kept.delete(path);
  }
}
