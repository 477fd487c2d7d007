// What a reader remembers about the file it read, to tell later whether the
// file is unchanged, only had lines appended (live tail; safe to append after
// it), or was rewritten.

import { createHash } from "node:crypto";
import { closeSync, fstatSync, openSync } from "node:fs";
import { readRange } from "./read-range.js";

export const FINGERPRINT_TAIL_BYTES = 4096;

export interface FileFingerprint {
  /** Bytes read. */
  size: number;
  /** mtime when read (ms); 0 for bytes that did not come from a file. */
  mtimeMs: number;
  /** sha256 (hex) of the last `tailLength` bytes read. */
  tailHash: string;
  tailLength: number;
}

export type FileChange = "unchanged" | "appended" | "rewritten";

export function hashBytes(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Fingerprint of bytes already in memory (`tail` = their last ≤ 4 KiB). */
export function fingerprintOf(size: number, tail: Uint8Array, mtimeMs = 0): FileFingerprint {
  return { size, mtimeMs, tailHash: hashBytes(tail), tailLength: tail.length };
}

function withFile<T>(path: string, use: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new Error(`${path}: cannot open session file: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return use(fd);
  } finally {
    closeSync(fd);
  }
}

/** The file's fingerprint now. */
export function fingerprintFile(path: string): FileFingerprint {
  return withFile(path, (fd) => {
    const st = fstatSync(fd);
    const tailLength = Math.min(FINGERPRINT_TAIL_BYTES, st.size);
    const tail = readRange(fd, st.size - tailLength, tailLength);
    return fingerprintOf(st.size, tail, st.mtimeMs);
  });
}

/**
 * How the file differs from what `fp` describes. "appended" means the bytes at
 * the old tail are the same and the file is longer; an mtime change with the
 * same size counts as "rewritten" (the middle could have changed).
 */
export function compareFingerprint(path: string, fp: FileFingerprint): FileChange {
  return withFile(path, (fd) => {
    const st = fstatSync(fd);
    if (st.size < fp.size) return "rewritten";
    const oldTail = readRange(fd, fp.size - fp.tailLength, fp.tailLength);
    if (oldTail.length !== fp.tailLength || hashBytes(oldTail) !== fp.tailHash) return "rewritten";
    if (st.size > fp.size) return "appended";
    return st.mtimeMs === fp.mtimeMs ? "unchanged" : "rewritten";
  });
}
