// The counts a rule without `extend` (omp's) keeps to carry a listed row over
// appends (`IncrementalUsage`), in memory only: a few totals and a small window
// per row, for the rows read or carried most recently. Each is valid for its
// record as it stands (the size its resume ends at) and for the file's first
// bytes as they were (omp rewrites its title slot in place, at the start of the
// file: a row is never carried over that). Taken out to be used: a count the
// carry did not return (a compaction, a `/clear`, a branch switch, a failure)
// is gone, and the file is read in full, as after a restart.

import { createHash } from "node:crypto";
import { readRange } from "../session/bytes/read-range.js";
import type { IncrementalUsage } from "../tokens/context-token-rule.js";

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

  /** The count for `path` when it is up to `offset` and the file's head hashes to `head()` (removed either way). */
  take(path: string, offset: number, head: () => string): IncrementalUsage | undefined {
    const kept = this.kept.get(path);
    if (!kept) return undefined;
    this.kept.delete(path);
    return kept.offset === offset && kept.head === head() ? kept.count : undefined;
  }

  /** Whether a count is kept for `path` (without taking it). */
  has(path: string): boolean {
    return this.kept.has(path);
  }

  forget(path: string): void {
    this.kept.delete(path);
  }
}
