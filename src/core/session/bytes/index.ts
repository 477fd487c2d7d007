// A file's bytes: lines split from chunks, ranges read, fingerprints of what was read.

export { ByteBoundedLru } from "./byte-bounded-lru.js";
export { compareFingerprint, type FileChange, type FileFingerprint, FINGERPRINT_TAIL_BYTES, fingerprintFile, fingerprintOf, hashBytes } from "./fingerprint.js";
export { asBuffer, collectLines, type JsonlLine, JsonlReader, type JsonlReadSummary } from "./jsonl-reader.js";
export { objectArray } from "./object-array.js";
export { readRange } from "./read-range.js";
export { TailKeeper } from "./tail-keeper.js";
