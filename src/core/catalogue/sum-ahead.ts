// pi 1.5's projected sum of a listed session, computed ahead once it is live.
// A full read keeps a pi 1.5 row's sum only when its count needed it (see
// projected-resume.ts): summing every listed session would triple every
// listing. pi writes a context edit (auto-retry, overflow recovery) only into
// a session it is running, and such a session gets other appends first (the
// user's message, the failed answer). So when a row without the sum is carried
// over appended bytes, the catalogue asks its child process (fill-child.ts) for
// the file's sum — one more parse of the branch there, none in this process —
// and keeps it in the row, carried over whatever was appended meanwhile. The
// child reads the file only up to the size the row was recorded at (pi writes
// its context edit right after the failed answer: the child would mostly find
// it there already, a sum the row could not take). A context edit that comes
// while the sum is computed waits for it (see SessionCatalogue.refresh), and
// one seen in the same write as the failed answer asks for it then and waits;
// a sum that fails (or no child) leaves the edit to one read (exact, slower).

import { closeSync, fstatSync, openSync } from "node:fs";
import { hashBytes } from "../session/bytes/fingerprint.js";
import { readRange } from "../session/bytes/read-range.js";
import type { BulkReader, StaleFile, SumAnswer } from "./bulk-reader.js";
import type { CatalogueRecord } from "./catalogue-file.js";
import { appendedChain, appendedTokens, rowTokenRule, type RowVersion } from "./catalogue-row.js";
import { keepsProjection, ProjectedTail, type ProjectedResume } from "./projected-resume.js";
import { readRecord } from "./read-record.js";
import type { CatalogueOptions } from "./catalogue-options.js";

type SessionRecord = Extract<CatalogueRecord, { kind: "session" }>;

/**
 * The file's pi 1.5 projected sum, counted ahead (run in the child: its row and id filter stay there), of its
 * first `upTo` bytes when given (the answer's key says what was read). Throws when unreadable.
 */
export function sumAnswerOf(path: string, versionOf: RowVersion, upTo?: number): SumAnswer {
  const record = readRecord(path, versionOf, { sumAhead: true, ...(upTo !== undefined ? { upTo } : {}) });
  const resume = record.kind === "session" ? record.resume : null;
  if (!resume) return { kind: "sum", path, key: record.key, leafId: null };
  return { kind: "sum", path, key: record.key, leafId: resume.leafId, ...(resume.projected ? { projected: resume.projected } : {}) };
}

/** Whether the row would want a sum ahead: counted by pi 1.5, resumable, without one (and no edit waiting for its target). */
export function wantsSum(record: CatalogueRecord | undefined, versionOf: RowVersion): record is SessionRecord {
  if (record?.kind !== "session" || !record.resume || record.resume.projected || record.resume.editsAhead) return false;
  return keepsProjection(rowTokenRule(record.row.agent, record.row.pi1xMarker, versionOf));
}

/**
 * The sum `answer` gives `record` (the file as the record describes it): the answer's own when it was
 * computed at the record's size, else carried over the lines appended since (read from the file, its
 * tails checked against both keys). Undefined when it does not fit (the record is not a later append of
 * what the child read, or the sum cannot follow those lines). Throws when the file cannot be read.
 */
export function sumForRecord(record: SessionRecord, answer: SumAnswer, versionOf: RowVersion): ProjectedResume | undefined {
  const resume = record.resume;
  const from = answer.key;
  const to = record.key;
  if (!answer.projected || !resume || from.size > to.size) return undefined;
  if (from.size === to.size) return from.tailHash === to.tailHash && answer.leafId === resume.leafId ? answer.projected : undefined;
  const start = from.size - from.tailLength;
  const fd = openSync(record.path, "r");
  let bytes: Buffer;
  try {
    bytes = readRange(fd, start, to.size - start);
  } finally {
    closeSync(fd);
  }
  if (bytes.length !== to.size - start || to.tailLength > bytes.length) return undefined;
  if (hashBytes(bytes.subarray(0, from.tailLength)) !== from.tailHash || hashBytes(bytes.subarray(bytes.length - to.tailLength)) !== to.tailHash) return undefined;
  const appended = bytes.subarray(from.tailLength);
  if (appended[appended.length - 1] !== 0x0a) return undefined;
  const mini = appendedChain(appended, answer.leafId, () => false);
  const metas = mini?.index.entries;
  if (!mini || !metas || metas.length === 0 || metas[metas.length - 1]!.id !== resume.leafId) return undefined;
  const rule = rowTokenRule(record.row.agent, record.row.pi1xMarker, versionOf);
  const tail = new ProjectedTail(answer.projected);
  metas.forEach((m, i) => tail.add(m, m.id, appendedTokens(rule, mini, m), () => mini.entryAt(m), i));
  return tail.current;
}

/** Whether the lines appended to the record's file (complete ones) hold a context edit (a sum ahead would carry it). */
export function appendsContextEdit(record: SessionRecord): boolean {
  let bytes: Buffer;
  try {
    const fd = openSync(record.path, "r");
    try {
      const size = fstatSync(fd).size;
      if (size <= record.key.size) return false;
      bytes = readRange(fd, record.key.size, size - record.key.size);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  return bytes.length > 0 && bytes[bytes.length - 1] === 0x0a && bytes.includes('"context_edit"');
}

/** Paths waiting for a sum, asked of one child process at a time; each path once (until `forget`). */
export class SumsAhead {
  private readonly asked = new Set<string>();
  private queue: StaleFile[] = [];
  private running: Promise<void> | undefined;
  /** Asked, not answered yet: resolved once the answer is taken, or the reader ended without one. */
  private readonly pending = new Map<string, { answered: Promise<void>; resolve: () => void }>();

  constructor(private readonly take: (answer: SumAnswer | { kind: "done"; cpuMs: number }) => void) {}

  /** Whether the path was asked for now (not asked before): its sum of the file's first `size` bytes (the row's). */
  want(path: string, size: number, reader: BulkReader | undefined, options: CatalogueOptions): boolean {
    if (!reader?.sums || this.asked.has(path)) return false;
    this.asked.add(path);
    this.queue.push({ path, size });
    if (!this.pending.has(path)) {
      let resolve!: () => void;
      const answered = new Promise<void>((r) => (resolve = r));
      this.pending.set(path, { answered, resolve });
    }
    this.running ??= this.run(reader, options).finally(() => (this.running = undefined));
    return true;
  }

  /** While the path's sum is being computed: resolves when its answer was taken (or none will come). */
  answered(path: string): Promise<void> | undefined {
    return this.pending.get(path)?.answered;
  }

  /** The row was read in full since: a later append may ask again. */
  forget(path: string): void {
    this.asked.delete(path);
  }

  /** Resolves when no sum is being computed. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private done(path: string): void {
    this.pending.get(path)?.resolve();
    this.pending.delete(path);
  }

  private async run(reader: BulkReader, options: CatalogueOptions): Promise<void> {
    // After the write that asked is handled (the child's start is not part of it).
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const files = this.queue;
      this.queue = [];
      try {
        for await (const answer of reader.sums!(files, options)) {
          if (answer.kind === "sum" || answer.kind === "done") this.take(answer);
          if (answer.kind === "sum" || answer.kind === "unreadable") this.done(answer.path);
        }
      } catch {
        // A reader reports its own failures: those rows keep no sum (their first edit reads the file).
      }
      for (const f of files) this.done(f.path);
    }
  }
}
