// The fields skimPiLayout (pi-layout-skimmer.ts) reads from one line, as the
// index takes them (SessionIndex.addSkimmed): positions into the line's bytes,
// hashes and numbers, no strings but the shared type and role.

/** What one skimmed line gives the index (one object, reused line after line). */
export class SkimmedEntry {
  type = "";
  idStart = 0;
  idEnd = 0;
  /** FNV-1a of the id's bytes (= of its UTF-16 units: ids here are ASCII). */
  idHash = 0;
  /** -1 for a null parentId. */
  parentStart = -1;
  parentEnd = -1;
  parentHash = 0;
  /** The entry timestamp's 24 bytes start here; `millis` is its time. */
  stampStart = 0;
  millis = 0;
  /** Messages: the role, message.timestamp (or the entry's time when absent), and the usage when there is one. */
  role: string | undefined = undefined;
  time = 0;
  hasSpend = false;
  input = 0;
  output = 0;
  cacheRead = 0;
  cacheWrite = 0;
  cost = 0;
}
