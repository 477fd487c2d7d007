// A catalogue row computed while streaming the file in bounded chunks, without
// building the session's index: each line's fields are read as the index would
// read them (same classifier, skimmed as the catalogue's full read is), the
// row's sums are accumulated, and per entry only an EntryTable record is kept.
// The branch's tokens and model then read the few bodies they need again by
// offset. Memory: one chunk, the table (~20 bytes and an id per entry), and the
// bodies the token rule asks for. Equals rowFromSession on the full index
// (proven by a property test on random sessions, for both pis' rules).
//
// Gives undefined for files it leaves to the full read: a version 1/2 session
// (migrated in memory), a reused id (lookups then depend on the whole file).

import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { Diagnostic } from "../diagnostics.js";
import { EntryBodies, type ByteSource } from "../session/open/byte-source.js";
import type { EntryMeta } from "../session/format/entry-meta.js";
import { FINGERPRINT_TAIL_BYTES, fingerprintOf } from "../session/bytes/fingerprint.js";
import { JsonlReader, asBuffer, type JsonlLine } from "../session/bytes/jsonl-reader.js";
import { LineClassifier, type ClassifiedLine } from "../session/scan/line-classifier.js";
import type { LineScan } from "../session/scan/line-fields.js";
import { metaOfRecord, type EntryRecord } from "../session/index/entry-columns.js";
import { recordOfSkimmed, SkimmedEntry, skimPiLayout } from "../session/skim/pi-layout-skimmer.js";
import type { SliceableBuffer } from "../session/scan/scanned-values.js";
import { recordFromFields, type UnknownKinds } from "../session/scan/meta-from-fields.js";
import { needsMigration, versionOfHeader } from "../session/format/migrate.js";
import { readRange } from "../session/bytes/read-range.js";
import { isoMillis } from "../session/skim/iso-millis.js";
import { borrowSearchChunk, SEARCH_CHUNK_BYTES } from "../session/skim/search-memory.js";
import { textOfContent } from "../session/open/session-info.js";
import type { SessionEntry, SessionHeader } from "../session/format/types.js";
import { findPi1xMarker, type Pi1xMarker } from "../session/dialect/pi1x-markers.js";
import type { RecordKey } from "./catalogue-file.js";
import { firstRequest, headerTime, modifiedOf, ompTitleOf, rowTokenRule, type CatalogueRow, type ComputedRow, type RowResume, type RowVersion } from "./catalogue-row.js";
import { titleSlotOf } from "../session/format/title-slot.js";
import { isOmpOnlyEntryType } from "../session/format/omp-entry-types.js";
import { ompMarkOfEntry } from "../session/dialect/omp-markers.js";
import { EntryTable } from "./entry-table.js";
import { IdFilter } from "./id-filter.js";
import { StreamedBranch } from "./streamed-branch.js";
import { editTarget, keepsProjection, projectedResumeOf, projectedResumeOfPath } from "./projected-resume.js";
import { cellKind, forkTime, KIND_ASSISTANT, KIND_USAGE, slotOfTimestamp, spendKindOf, SpendSlotsBuilder } from "./spend-slots.js";
import { assistantModelFromLine, modelKey, spendModelOfEntry } from "./spend-model.js";

const CHUNK_BYTES = SEARCH_CHUNK_BYTES;
/** Reused by every streamed row (one runs at a time; nothing keeps a view of it): a chunk of the search memory when one is free. */
let sharedChunk: Buffer | undefined;

export interface StreamedRow {
  key: RecordKey;
  /** null: not a session (no header). */
  computed: ComputedRow | null;
}

type Accepted = Exclude<LineScan, { kind: "invalid" | "blank" }>;

/** Bodies of lines still in the chunk being read (the line handed to the callback). */
class CurrentLine implements ByteSource {
  line: JsonlLine | null = null;

  read(offset: number, length: number): Uint8Array {
    const l = this.line!;
    const start = l.start + (offset - l.offset);
    return l.bytes.subarray(start, start + length);
  }
}

/**
 * Bodies read again from the open file, a block at a time into one reused
 * buffer (EntryBodies parses a read before asking for the next): walking the
 * branch forwards or backwards costs one read per block, not one per entry.
 */
class ReusedReads implements ByteSource {
  private blockStart = 0;
  private blockLength = 0;

  constructor(
    private readonly fd: number,
    private readonly buffer: Buffer,
    private readonly fileSize: number,
    private readonly path: string,
  ) {}

  read(offset: number, length: number): Uint8Array {
    if (offset >= this.blockStart && offset + length <= this.blockStart + this.blockLength) {
      return this.buffer.subarray(offset - this.blockStart, offset - this.blockStart + length);
    }
    if (offset + length > this.fileSize) throw this.changed();
    if (length > this.buffer.length) {
      const bytes = readRange(this.fd, offset, length);
      if (bytes.length < length) throw this.changed();
      return bytes;
    }
    // A block from here on, or ending here when the walk goes backwards.
    const start = offset < this.blockStart ? Math.max(0, offset + length - this.buffer.length) : offset;
    const end = Math.min(this.fileSize, start + this.buffer.length);
    this.blockLength = 0;
    let done = 0;
    while (done < end - start) {
      const n = readSync(this.fd, this.buffer, done, end - start - done, start + done);
      if (n === 0) throw this.changed();
      done += n;
    }
    this.blockStart = start;
    this.blockLength = done;
    return this.buffer.subarray(offset - start, offset - start + length);
  }

  private changed(): Error {
    return new Error(`${this.path}: the file is shorter than when it was read (it changed); reload it`);
  }
}

function modelOfBody(meta: EntryMeta, body: (meta: EntryMeta) => SessionEntry): string | null {
  try {
    return spendModelOfEntry(body(meta));
  } catch {
    return modelKey(undefined, undefined); // as addSessionSpend keys a body it cannot read
  }
}

/** The session-wide sums of a row, accumulated line by line (as SessionIndex.add does). */
class RowSums {
  messages = 0;
  activity = 0;
  newest = 0;
  input = 0;
  output = 0;
  cacheRead = 0;
  cacheWrite = 0;
  cost = 0;
  readonly slots = new SpendSlotsBuilder();
  /** forkTime of the header (spend copied from the parent session is marked). */
  forkedAt = Number.NaN;
  name: string | undefined;
  hasCompactions = false;
  firstUserMessage: string | null = null;
  marker: Pi1xMarker | undefined;
  /** Targets of the file's context edits (read while their line is in the chunk). */
  readonly editTargets: string[] = [];

  add(meta: EntryMeta, body: (meta: EntryMeta) => SessionEntry, line: JsonlLine): void {
    if (meta.type === "message") this.messages++;
    if (meta.activityTime !== undefined && meta.activityTime > this.activity) this.activity = meta.activityTime;
    const ms = isoMillis(meta.timestamp);
    if (ms > this.newest) this.newest = ms;
    const s = meta.spend;
    if (s !== undefined) {
      this.input += s.input;
      this.output += s.output;
      this.cacheRead += s.cacheRead;
      this.cacheWrite += s.cacheWrite;
      this.cost += s.cost;
      const kind = spendKindOf(meta.type, meta.role);
      if (kind >= 0) {
        let model: string | null = null;
        if (kind === KIND_ASSISTANT) model = assistantModelFromLine(line.bytes, line.start, line.start + line.length) ?? modelOfBody(meta, body);
        else if (kind === KIND_USAGE) model = modelOfBody(meta, body);
        // A fork's copied spend is told by its time (rare: only a file with a parentSession needs it).
        const cell = Number.isNaN(this.forkedAt) ? kind : cellKind(kind, Date.parse(meta.timestamp), this.forkedAt);
        this.slots.add(slotOfTimestamp(meta.timestamp), cell, model, s);
      }
    }
    if (meta.type === "session_info") this.name = meta.name?.trim() || undefined;
    if (meta.type === "compaction") this.hasCompactions = true;
    if (meta.type === "context_edit") {
      // As rowFromSession: a body that cannot be read throws there too.
      const target = editTarget(body(meta));
      if (target !== undefined) this.editTargets.push(target);
    }
    if (this.firstUserMessage === null && meta.type === "message" && meta.role === "user") {
      // firstUserMessageText: the first user message with text (a body that cannot be read throws there too).
      const message: unknown = (body(meta) as { message?: unknown }).message;
      const text = typeof message === "object" && message !== null && "content" in message ? textOfContent(message.content) : "";
      if (text) this.firstUserMessage = text;
    }
    if (this.marker === undefined) {
      this.one[0] = meta;
      this.markerBody = body;
      this.marker = findPi1xMarker(this.one, this.markerEntry);
    }
  }

  /** findPi1xMarker's arguments, reused for every line (no allocation per line). */
  private readonly one: EntryMeta[] = [];
  private markerBody: ((meta: EntryMeta) => SessionEntry) | undefined;
  private readonly markerEntry = (meta: EntryMeta): SessionEntry | undefined => {
    try {
      return this.markerBody!(meta);
    } catch {
      return undefined; // as sessionPi1xMarker: an unreadable body is no marker
    }
  };
}

/** Reads lines as SessionBuilder does for a version 3 file (header first, pi's trim of the first and last line). */
class StreamedLines {
  readonly table = new EntryTable();
  readonly sums = new RowSums();
  header: SessionHeader | null = null;
  /** Line 1 was omp's title slot. */
  titleSlot = false;
  /** The file holds omp's title slot or an entry only omp writes. */
  ompMarked = false;
  headerMissing = false;
  /** The file needs what this reader does not do (migration, a reused id): read it in full. */
  giveUp = false;
  private headerDecided = false;
  private readonly classifier = new LineClassifier(false, true);
  private readonly skimmed = new SkimmedEntry();
  private deferred: { line: JsonlLine; copy: Uint8Array; scan: Accepted } | null = null;
  private readonly unknown: UnknownKinds = { entryTypes: new Set(), messageRoles: new Set() };
  private readonly diagnostics: Diagnostic[] = [];
  private readonly current = new CurrentLine();
  private readonly bodies: EntryBodies;

  private readonly body = (meta: EntryMeta): SessionEntry => this.bodies.entry(meta);

  constructor(path: string) {
    this.bodies = new EntryBodies(this.current, path, 0);
  }

  line(l: JsonlLine): void {
    if (this.giveUp || this.headerMissing) return;
    if (this.headerDecided) {
      // Most lines: pi's layout, read straight from the bytes (what the classifier's skim would give).
      const b = asBuffer(l.bytes) as SliceableBuffer;
      if (skimPiLayout(b, l.start, l.start + l.length, this.skimmed)) {
        this.deferred = null;
        this.add(l, recordOfSkimmed(this.skimmed, b, l));
        return;
      }
    }
    const classified: ClassifiedLine = this.classifier.classify(l.bytes, l.start, l.start + l.length);
    if (classified.kind === "blank") return;
    this.deferred = null;
    if (classified.kind === "invalid") {
      // Kept in case it is the last non-blank line (pi's whole-text trim then makes it valid).
      if (classified.ifLast) this.deferred = { line: { ...l }, copy: l.bytes.slice(l.start, l.start + l.length), scan: classified.ifLast };
      return;
    }
    this.accept(l, classified);
  }

  finish(): void {
    const d = this.deferred;
    this.deferred = null;
    if (d && !this.giveUp && !this.headerMissing) this.accept({ ...d.line, bytes: d.copy, start: 0 }, d.scan);
    this.table.finish();
  }

  private accept(l: JsonlLine, scan: Accepted): void {
    if (!this.headerDecided && !this.titleSlot && scan.kind === "object" && scan.fields.type === "title") {
      // omp's title slot on line 1: the header is the next parsed line (as SessionBuilder reads it).
      try {
        const slot = titleSlotOf(JSON.parse(asBuffer(l.bytes).toString("utf8", l.start, l.start + l.length)));
        if (slot) {
          this.titleSlot = true;
          this.ompMarked = true;
          return;
        }
      } catch {
        // not a slot: the header decision below
      }
    }
    if (!this.headerDecided) {
      this.headerDecided = true;
      if (scan.kind === "object" && scan.fields.type === "session" && typeof scan.fields.id === "string") {
        const text = asBuffer(l.bytes).toString("utf8", l.start, l.start + l.length);
        let header: SessionHeader;
        try {
          header = JSON.parse(text) as SessionHeader;
        } catch {
          header = JSON.parse(text.trim()) as SessionHeader;
        }
        this.header = header;
        this.sums.forkedAt = forkTime(header);
        if (needsMigration(versionOfHeader(header))) this.giveUp = true;
        return;
      }
      // pi treats the file as empty: no row (the rest need not be read).
      this.headerMissing = true;
      return;
    }
    if (scan.kind !== "object" || scan.fields.type === "session") return;
    this.diagnostics.length = 0;
    const record = recordFromFields(scan.fields, { line: l.line, offset: l.offset, length: l.length }, this.unknown, this.diagnostics);
    if (record) this.add(l, record);
  }

  private add(l: JsonlLine, record: EntryRecord): void {
    const meta = metaOfRecord(record, this.table.size);
    if (!this.table.add(meta)) {
      this.giveUp = true;
      return;
    }
    this.current.line = l;
    this.sums.add(meta, this.body, l);
    if (!this.ompMarked && (isOmpOnlyEntryType(meta.type) || (meta.role !== undefined && OMP_ROLES.has(meta.role)) || (OMP_MARKED_BY_BODY.has(meta.type) && this.ompMarkedBody(meta)))) this.ompMarked = true;
    this.current.line = null;
  }

  private ompMarkedBody(meta: EntryMeta): boolean {
    try {
      return ompMarkOfEntry(this.bodies.entry(meta)) !== undefined;
    } catch {
      return false;
    }
  }
}

/**
 * The row of the session file at `path`, streamed; undefined when the file is
 * left to the full read (see above). Throws when the file cannot be read.
 */
export function streamRow(path: string, versionOf: RowVersion, options: { chunkBytes?: number; sumAhead?: boolean; upTo?: number } = {}): StreamedRow | undefined {
  const fd = openSync(path, "r");
  try {
    const stat = fstatSync(fd);
    // `upTo`: the file as it was at that size (its first bytes; a sum ahead of a row recorded at that size).
    const end = Math.min(stat.size, options.upTo ?? stat.size);
    const lines = new StreamedLines(path);
    const reader = new JsonlReader((l) => lines.line(l));
    const chunk = options.chunkBytes !== undefined ? Buffer.allocUnsafe(options.chunkBytes) : (sharedChunk ??= borrowSearchChunk() ?? Buffer.allocUnsafe(CHUNK_BYTES));
    let size = 0;
    let lastRead = 0;
    while (size < end && !lines.giveUp && !lines.headerMissing) {
      const n = readSync(fd, chunk, 0, Math.min(chunk.length, end - size), size);
      if (n === 0) break;
      reader.push(chunk.subarray(0, n));
      lastRead = n;
      size += n;
    }
    const lastByte = lastRead > 0 ? chunk[lastRead - 1]! : -1;
    if (lines.giveUp) return undefined;
    if (lines.headerMissing) size = end;
    else {
      reader.end();
      lines.finish();
      if (lines.giveUp) return undefined;
    }
    const tailLength = Math.min(FINGERPRINT_TAIL_BYTES, size);
    // The tail is still in the chunk when the last read held it (no allocation per file).
    const tail = !lines.headerMissing && lastRead >= tailLength ? chunk.subarray(lastRead - tailLength, lastRead) : new ReusedReads(fd, chunk, size, path).read(size - tailLength, tailLength);
    const fp = fingerprintOf(size, tail, stat.mtimeMs);
    const key: RecordKey = { size, mtimeMs: stat.mtimeMs, tailHash: fp.tailHash, tailLength: fp.tailLength, ino: stat.ino };
    const header = lines.header;
    if (!header || lines.headerMissing) return { key, computed: null };
    return { key, computed: rowOf(path, lines, header, fd, chunk, key, lastByte === 0x0a, versionOf, options.sumAhead === true) };
  } finally {
    closeSync(fd);
  }
}

/** Bodies parsed again for the branch's tokens that are kept for a second question (line bytes). */
const BODY_CACHE_BYTES = 1024 * 1024;

/** Entry types whose body may mark a file as omp's (a model_change with `model`, an omp compaction, omp's core custom entries, an assistant's contextSnapshot). */
const OMP_MARKED_BY_BODY: ReadonlySet<string> = new Set(["model_change", "compaction", "custom"]);
const OMP_ROLES: ReadonlySet<string> = new Set(["developer", "pythonExecution", "fileMention"]);

function rowOf(path: string, lines: StreamedLines, header: SessionHeader, fd: number, chunk: Buffer, key: RecordKey, complete: boolean, versionOf: RowVersion, sumAhead: boolean): ComputedRow {
  const { table, sums } = lines;
  const marker = sums.marker ?? null;
  const rule = rowTokenRule(lines.ompMarked ? "omp" : "pi", marker, versionOf);
  const bodies = new EntryBodies(new ReusedReads(fd, chunk, key.size, path), path, BODY_CACHE_BYTES);
  const leaf = table.size - 1;
  const branch = leaf >= 0 ? table.branchTo(leaf) : new Int32Array(0);
  const streamed = new StreamedBranch(table, branch, rule, (m) => bodies.entry(m));
  const facts = streamed.facts();
  const headerMs = headerTime(header);
  const row: CatalogueRow = {
    path,
    id: header.id,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    name: sums.name ?? null,
    agent: lines.ompMarked ? "omp" : "pi",
    ompTitle: ompTitleOf(path),
    firstUserMessage: firstRequest(sums.firstUserMessage),
    parentSession: typeof header.parentSession === "string" ? header.parentSession : null,
    pi1xMarker: marker,
    entries: table.size,
    messages: sums.messages,
    modified: modifiedOf(sums.activity, headerMs, key.mtimeMs),
    lastActivity: sums.activity,
    newestEntry: sums.newest,
    contextTokens: facts.usage.tokens,
    contextSource: facts.usage.source,
    contextMessages: facts.usage.messageCount,
    model: facts.model,
    totalTokens: sums.input + sums.output + sums.cacheRead + sums.cacheWrite,
    input: sums.input,
    output: sums.output,
    cacheRead: sums.cacheRead,
    cacheWrite: sums.cacheWrite,
    cost: sums.cost,
    spend: sums.slots.build(),
    hasCompactions: sums.hasCompactions,
    size: key.size,
    mtimeMs: key.mtimeMs,
  };
  let resume: RowResume | null = null;
  if (complete && versionOfHeader(header) === 3) {
    const ids = IdFilter.forSession(table.size);
    for (const id of table.ids) ids.add(id);
    resume = { offset: key.size, leafId: leaf >= 0 ? table.ids[leaf]! : null, branchHasReset: facts.branchHasReset, headerMs, ids };
    // Kept from what the row's own count read (pi's running sum, or the recounted entries): no extra pass.
    // Or, asked for a sum ahead (a live session, read in the fill child: sum-ahead.ts) when the count needed
    // neither (an answer after every reset, no compaction), pi's running sum built now (one more parse of
    // the branch): the first context edit appended later then costs its bytes only.
    const running = keepsProjection(rule) && !facts.recounted ? (facts.running ?? (sumAhead ? streamed.runningAhead() : undefined)) : undefined;
    const projected = !keepsProjection(rule)
      ? undefined
      : running
        ? projectedResumeOf(running, branch.length, (p) => streamed.entryAt(p))
        : facts.recounted && projectedResumeOfPath(facts.recounted);
    if (projected) resume.projected = projected;
    if (keepsProjection(rule) && sums.editTargets.some((t) => table.numberOf(t) === undefined)) resume.editsAhead = true;
  }
  // omp's count as the row's own read started it (no extra pass): carried over appends while in memory.
  return resume && facts.count ? { row, resume, count: facts.count } : { row, resume };
}
