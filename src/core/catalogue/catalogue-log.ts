// The catalogue on disk as a log: one line per record, appended when a row
// changes, the later line for a path winning; a save writes the changed rows
// only (not every row and id filter again), and a load parses one line at a
// time (no one giant string). Each line is `<checksum> <json>`: a line cut
// short, damaged, or torn by a crash is dropped, then its file read again —
// nothing is trusted that does not pass (the checksum, then the record's own
// validation). Lines are appended with O_APPEND in whole-line writes, so two
// processes saving at once interleave whole lines. When the file holds much
// more than its live lines it is compacted: the last valid line per path
// copied, streamed, to a temporary file renamed over it (a line another writer
// appends in that moment may be lost: that only costs a read of its file later).

import * as crypto from "node:crypto";
import { mkdir, open, rename, rm, stat, type FileHandle } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { CATALOGUE_FORMAT, CATALOGUE_VERSION, validStoredRecord, type CatalogueRecord } from "./catalogue-file.js";

/** Bytes read per chunk while loading or compacting. */
const CHUNK = 1 << 20;
/** Lines are written in batches of about this many bytes (each batch whole lines). */
const BATCH = 256 * 1024;
/** Longer than any record's line (an id filter is at most 1 MiB, 1.4 MB as base64). */
const MAX_LINE = 8 << 20;
/** Compacted when the file is larger than twice its live lines and this. */
const COMPACT_SLACK = 1 << 20;

export function catalogueLogFile(folder: string, ruleName: string): string {
  return join(folder, `catalogue-v${CATALOGUE_VERSION}-${ruleName.replace(/[^A-Za-z0-9.-]/g, "_")}.jsonl`);
}

// crypto.hash (one call, no Hash object per line) where the runtime has it (Node ≥ 20.12).
const oneShot = (crypto as { hash?: (algorithm: string, data: string | Uint8Array, encoding: "hex") => string }).hash;

function checksum(json: Uint8Array | string): string {
  return (oneShot ? oneShot("sha256", json, "hex") : crypto.createHash("sha256").update(json).digest("hex")).slice(0, 16);
}

/** One line of the log: the checksum of the JSON, a space, the JSON, a newline. */
function lineOf(value: unknown): string {
  const json = JSON.stringify(value);
  return `${checksum(json)} ${json}\n`;
}

function headerValue(ruleName: string): object {
  return { format: CATALOGUE_FORMAT, version: CATALOGUE_VERSION, rule: ruleName };
}

/** A record as written: the id filter as its JSON, a missing header time as null. */
function storedValue(path: string, record: CatalogueRecord | null): unknown {
  if (!record) return { path, kind: "gone" };
  if (record.kind !== "session" || !record.resume) return record;
  const headerMs = Number.isNaN(record.resume.headerMs) ? null : record.resume.headerMs;
  return { ...record, resume: { ...record.resume, headerMs } };
}

/** The JSON of a line whose checksum holds (the bytes between the space and the newline), else undefined. */
function checkedJson(line: Buffer): Buffer | undefined {
  if (line.length < 18 || line[16] !== 0x20) return undefined;
  const json = line.subarray(17);
  return line.toString("latin1", 0, 16) === checksum(json) ? json : undefined;
}

/** Calls `visit` with each complete line (without its newline) and the offset it starts at; a last line with no newline is left out. */
async function eachLine(handle: FileHandle, visit: (line: Buffer, offset: number) => void): Promise<number> {
  let carry = Buffer.alloc(0);
  let carryAt = 0;
  let position = 0;
  // A line longer than any record (garbage without newlines) is skipped, not held.
  let skipping = false;
  const chunk = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const data = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
    let start = 0;
    for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, start)) {
      if (!skipping) visit(data.subarray(start, nl), carryAt + start);
      skipping = false;
      start = nl + 1;
    }
    carryAt += start;
    carry = Buffer.from(data.subarray(start));
    if (carry.length > MAX_LINE) {
      skipping = true;
      carryAt += carry.length;
      carry = Buffer.alloc(0);
    }
  }
  return position;
}

function isHeader(value: unknown, ruleName: string): boolean {
  const v = value as Record<string, unknown> | null;
  return typeof v === "object" && v !== null && v.format === CATALOGUE_FORMAT && v.version === CATALOGUE_VERSION && v.rule === ruleName && v.path === undefined;
}

/** The path a record line names (its JSON starts with it, as written), without parsing the rest. */
function pathOfLine(text: Buffer): string | undefined {
  const prefix = '{"path":"';
  if (!text.subarray(0, prefix.length).equals(Buffer.from(prefix))) return undefined;
  for (let i = prefix.length; i < text.length; i++) {
    if (text[i] === 0x5c) i++;
    else if (text[i] === 0x22) {
      try {
        return JSON.parse(text.toString("utf8", prefix.length - 1, i + 1)) as string;
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

/** How a removal line ends (`{"path":…,"kind":"gone"}`: no record's JSON ends so). */
const GONE = Buffer.from(',"kind":"gone"}');

/**
 * What an append must write first: the header in a new file, a newline after a line cut short
 * (a crash mid-write), so the next line is not joined to it.
 */
async function appendStart(handle: FileHandle, file: string, ruleName: string): Promise<string> {
  const st = await handle.stat();
  if (st.size === 0) {
    await removeEarlierVersions(file);
    return lineOf(headerValue(ruleName));
  }
  const last = Buffer.alloc(1);
  await handle.read(last, 0, 1, st.size - 1);
  return last[0] !== 0x0a ? "\n" : "";
}

/** Whether the file starts with this catalogue's header line (or is empty). */
async function startsAsLog(handle: FileHandle, ruleName: string): Promise<boolean> {
  const head = Buffer.alloc(512);
  const { bytesRead } = await handle.read(head, 0, head.length, 0);
  if (bytesRead === 0) return true;
  const nl = head.subarray(0, bytesRead).indexOf(0x0a);
  const json = nl < 0 ? undefined : checkedJson(head.subarray(0, nl));
  try {
    return json !== undefined && isHeader(JSON.parse(json.toString("utf8")), ruleName);
  } catch {
    return false;
  }
}

/**
 * Appends `records` to the log at `file` when it is this catalogue's log (or new), for a process
 * that reads sessions for the catalogue (fill-child.ts); each line's bytes, or undefined when nothing
 * was written (another file is there, or the write failed).
 */
export async function appendRecords(file: string, ruleName: string, records: readonly CatalogueRecord[]): Promise<number[] | undefined> {
  try {
    await mkdir(dirname(file), { recursive: true });
    const handle = await open(file, "a+", 0o600);
    try {
      if (!(await startsAsLog(handle, ruleName))) return undefined;
      const start = await appendStart(handle, file, ruleName);
      const lines = records.map((r) => lineOf(storedValue(r.path, r)));
      await handle.write(start + lines.join(""));
      return lines.map((l) => Buffer.byteLength(l));
    } finally {
      await handle.close();
    }
  } catch {
    return undefined;
  }
}

/** The files of earlier catalogue versions this log replaces (version 2: the rows and the id filters beside them; 3: a log without spend slots). */
async function removeEarlierVersions(file: string): Promise<void> {
  const rows = file.replace(/catalogue-v\d+-(.*)\.jsonl$/, "catalogue-v2-$1.json");
  if (rows === file) return;
  await rm(rows, { force: true });
  await rm(rows.replace(/\.json$/, ".ids.json"), { force: true });
  await rm(file.replace(/catalogue-v\d+-(.*)\.jsonl$/, "catalogue-v3-$1.jsonl"), { force: true });
}

export interface LoadedLog {
  records: Map<string, CatalogueRecord>;
  /** Bytes of each live line (for deciding when to compact). */
  lineBytes: Map<string, number>;
  /** The file starts with this catalogue's header (or does not exist): it can be appended to. */
  appendable: boolean;
  size: number;
}

/** The records of the log; none when the file is missing or does not start with this catalogue's header. */
export async function loadLog(file: string, ruleName: string): Promise<LoadedLog> {
  const records = new Map<string, CatalogueRecord>();
  const lineBytes = new Map<string, number>();
  let handle: FileHandle;
  try {
    handle = await open(file, "r");
  } catch {
    return { records, lineBytes, appendable: true, size: 0 };
  }
  let first = true;
  let header = false;
  let size = 0;
  try {
    size = await eachLine(handle, (line) => {
      const json = checkedJson(line);
      let value: unknown;
      try {
        value = json ? JSON.parse(json.toString("utf8")) : undefined;
      } catch {
        value = undefined;
      }
      if (first) {
        first = false;
        header = isHeader(value, ruleName);
        return;
      }
      if (!header || value === undefined) return;
      const v = value as { path?: unknown; kind?: unknown };
      if (typeof v !== "object" || v === null || typeof v.path !== "string") return;
      if (v.kind === "gone") {
        records.delete(v.path);
        lineBytes.delete(v.path);
        return;
      }
      const record = validStoredRecord(value);
      if (!record) return;
      // Re-inserted: the map's order stays the order of the latest lines.
      records.delete(record.path);
      records.set(record.path, record);
      lineBytes.set(record.path, line.length + 1);
    });
  } catch {
    records.clear();
    lineBytes.clear();
  } finally {
    await handle.close();
  }
  return { records, lineBytes, appendable: header || size === 0, size };
}

/**
 * The catalogue's file as this process knows it: appends what changed, and
 * compacts or rewrites it when needed.
 */
export class CatalogueLog {
  private liveBytes = 0;

  constructor(
    readonly file: string,
    private readonly ruleName: string,
    private readonly lineBytes: Map<string, number>,
    private appendable: boolean,
  ) {
    for (const bytes of lineBytes.values()) this.liveBytes += bytes;
  }

  /** Writes `changes` (a record, or null when its file is gone). `all`: every live record, for a rewrite of a file that cannot be appended to. */
  async write(changes: Iterable<[string, CatalogueRecord | null]>, all: () => Iterable<CatalogueRecord>): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    if (!this.appendable) {
      await this.rewrite(all());
      return;
    }
    const handle = await open(this.file, "a+", 0o600);
    let size: number;
    try {
      const parts = [await appendStart(handle, this.file, this.ruleName)];
      let pending = 0;
      for (const [path, record] of changes) {
        const line = lineOf(storedValue(path, record));
        const bytes = Buffer.byteLength(line);
        this.liveBytes -= this.lineBytes.get(path) ?? 0;
        if (record) {
          this.lineBytes.set(path, bytes);
          this.liveBytes += bytes;
        } else this.lineBytes.delete(path);
        parts.push(line);
        pending += bytes;
        if (pending >= BATCH) {
          await handle.write(parts.splice(0).join(""));
          pending = 0;
        }
      }
      if (parts.length > 0) await handle.write(parts.join(""));
      size = (await handle.stat()).size;
    } finally {
      await handle.close();
    }
    if (size > 2 * this.liveBytes + COMPACT_SLACK) await this.compact();
  }

  /** A line another process appended for this catalogue (what the next compaction weighs). */
  appended(path: string, bytes: number): void {
    this.liveBytes += bytes - (this.lineBytes.get(path) ?? 0);
    this.lineBytes.set(path, bytes);
  }

  /** Keeps the last valid line per path (and the header), copied in file order, then renamed over the log. */
  async compact(): Promise<void> {
    const keep = new Map<string, { at: number; length: number }>();
    let end: number;
    let source: FileHandle;
    try {
      source = await open(this.file, "r");
    } catch {
      return; // nothing saved yet
    }
    try {
      let first = true;
      end = await eachLine(source, (line, at) => {
        const json = checkedJson(line);
        if (first) {
          first = false;
          if (!json || !isHeader(JSON.parse(json.toString("utf8")), this.ruleName)) throw new Error("not this catalogue's log");
          return;
        }
        const path = json && pathOfLine(json);
        if (!path) return;
        if (json.subarray(json.length - GONE.length).equals(GONE)) keep.delete(path);
        else keep.set(path, { at, length: line.length + 1 });
      });
      const offsets = [...keep.values()].sort((a, b) => a.at - b.at);
      await this.replaceWith(async (out) => {
        const header = lineOf(headerValue(this.ruleName));
        await out.write(header);
        let written = Buffer.byteLength(header);
        const buffer = Buffer.allocUnsafe(BATCH);
        for (let i = 0; i < offsets.length; ) {
          // Runs of kept lines read in one go (most lines are kept).
          const from = offsets[i]!.at;
          let to = from + offsets[i]!.length;
          i++;
          while (i < offsets.length && offsets[i]!.at === to && to - from < BATCH) to += offsets[i++]!.length;
          const bytes = to - from <= BATCH ? buffer : Buffer.allocUnsafe(to - from);
          const { bytesRead } = await source.read(bytes, 0, to - from, from);
          await out.write(bytes.subarray(0, bytesRead));
          written += bytesRead;
        }
        // Lines another process appended since the first pass: carried over as they are.
        const st = await source.stat();
        for (let at = end; at < st.size; ) {
          const { bytesRead } = await source.read(buffer, 0, Math.min(BATCH, st.size - at), at);
          if (bytesRead === 0) break;
          await out.write(buffer.subarray(0, bytesRead));
          at += bytesRead;
          written += bytesRead;
        }
        this.liveBytes = written;
      });
    } catch {
      // Not a log this catalogue can compact (damaged header): the next save rewrites it.
      this.appendable = false;
    } finally {
      await source.close();
    }
  }

  /** A new file of every record this process knows (the old one could not be appended to). */
  private async rewrite(records: Iterable<CatalogueRecord>): Promise<void> {
    this.lineBytes.clear();
    this.liveBytes = 0;
    await this.replaceWith(async (out) => {
      const parts: string[] = [lineOf(headerValue(this.ruleName))];
      let pending = 0;
      for (const record of records) {
        const line = lineOf(storedValue(record.path, record));
        const bytes = Buffer.byteLength(line);
        this.lineBytes.set(record.path, bytes);
        this.liveBytes += bytes;
        parts.push(line);
        pending += bytes;
        if (pending >= BATCH) {
          await out.write(parts.splice(0).join(""));
          pending = 0;
        }
      }
      await out.write(parts.join(""));
    });
    this.appendable = true;
  }

  private async replaceWith(fill: (out: FileHandle) => Promise<void>): Promise<void> {
    const temp = join(dirname(this.file), `.${basename(this.file)}.${process.pid}.${crypto.randomBytes(4).toString("hex")}.tmp`);
    let renamed = false;
    try {
      const out = await open(temp, "wx", 0o600);
      try {
        await fill(out);
        await out.sync();
      } finally {
        await out.close();
      }
      await rename(temp, this.file);
      renamed = true;
    } finally {
      if (!renamed) await rm(temp, { force: true });
    }
  }

  /** The file's size now (for tests). */
  async size(): Promise<number> {
    return (await stat(this.file)).size;
  }
}
