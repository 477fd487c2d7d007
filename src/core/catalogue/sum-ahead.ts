// pi 1.5's projected sum of a listed session, computed ahead once it is live.
// A full read keeps a pi 1.5 row's sum only when its count needed it (see
// projected-resume.ts): summing every listed session would triple every
// listing. pi writes a context edit (auto-retry, overflow recovery) only into
// a session it is running, and such a session gets other appends first (the
// user's message, the failed answer). So when a row without the sum is carried
// over appended bytes, the catalogue asks its child process (fill-child.ts) for
// the file's sum — one more parse of the branch there, none in this process —
// and keeps it in the row, carried over whatever was appended meanwhile. A
// context edit that comes first reads the file once, as before (exact, slower).

import { closeSync, openSync } from "node:fs";
import { hashBytes } from "../session/fingerprint.js";
import { readRange } from "../session/read-range.js";
import { semanticsFor } from "../pi-version/index.js";
import type { BulkReader, SumAnswer } from "./bulk-reader.js";
import type { CatalogueRecord } from "./catalogue-file.js";
import { appendedChain, appendedTokens, type RowVersion } from "./catalogue-row.js";
import { keepsProjection, ProjectedTail, type ProjectedResume } from "./projected-resume.js";
import { readRecord } from "./read-record.js";
import type { CatalogueOptions } from "./session-catalogue.js";

type SessionRecord = Extract<CatalogueRecord, { kind: "session" }>;

/** The file's pi 1.5 projected sum, counted ahead (run in the child: its row and id filter stay there). Throws when unreadable. */
export function sumAnswerOf(path: string, versionOf: RowVersion): SumAnswer {
  const record = readRecord(path, versionOf, { sumAhead: true });
  const resume = record.kind === "session" ? record.resume : null;
  if (!resume) return { kind: "sum", path, key: record.key, leafId: null };
  return { kind: "sum", path, key: record.key, leafId: resume.leafId, ...(resume.projected ? { projected: resume.projected } : {}) };
}

/** Whether the row would want a sum ahead: counted by pi 1.5, resumable, without one (and no edit waiting for its target). */
export function wantsSum(record: CatalogueRecord | undefined, versionOf: RowVersion): record is SessionRecord {
  if (record?.kind !== "session" || !record.resume || record.resume.projected || record.resume.editsAhead) return false;
  return keepsProjection(semanticsFor(versionOf(record.row.pi1xMarker)).contextTokenRule);
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
  const rule = semanticsFor(versionOf(record.row.pi1xMarker)).contextTokenRule;
  const tail = new ProjectedTail(answer.projected);
  metas.forEach((m, i) => tail.add(m, m.id, appendedTokens(rule, mini, m), () => mini.entryAt(m), i));
  return tail.current;
}

/** Paths waiting for a sum, asked of one child process at a time; each path once (until `forget`). */
export class SumsAhead {
  private readonly asked = new Set<string>();
  private queue: string[] = [];
  private running: Promise<void> | undefined;

  constructor(private readonly take: (answer: SumAnswer | { kind: "done"; cpuMs: number }) => void) {}

  /** Whether the path was asked for now (not asked before). */
  want(path: string, reader: BulkReader | undefined, options: CatalogueOptions): boolean {
    if (!reader?.sums || this.asked.has(path)) return false;
    this.asked.add(path);
    this.queue.push(path);
    this.running ??= this.run(reader, options).finally(() => (this.running = undefined));
    return true;
  }

  /** The row was read in full since: a later append may ask again. */
  forget(path: string): void {
    this.asked.delete(path);
  }

  /** Resolves when no sum is being computed. */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  private async run(reader: BulkReader, options: CatalogueOptions): Promise<void> {
    // After the write that asked is handled (the child's start is not part of it).
    await new Promise((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const paths = this.queue;
      this.queue = [];
      try {
        for await (const answer of reader.sums!(paths, options)) if (answer.kind === "sum" || answer.kind === "done") this.take(answer);
      } catch {
        // A reader reports its own failures: those rows keep no sum (their first edit reads the file).
      }
    }
  }
}
