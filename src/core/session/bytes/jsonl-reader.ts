// Streaming line splitter over raw bytes. Chunks can be split anywhere (even
// inside a UTF-8 sequence or a BOM); the lines that come out are the same.
// Lines are split on byte 0x0A, which in UTF-8 only ever means "\n", so the
// split equals pi's `text.split("\n")` on the decoded text.

import { objectArray } from "./object-array.js";

/** One line handed to the reader's callback: the same object is refilled for the next line, so copy what you keep. */
export interface JsonlLine {
  /** 1-based line number. */
  line: number;
  /** Byte offset of the line's first byte in the file (after a BOM on line 1). */
  offset: number;
  /** Byte length without the `\n` and without one `\r` before it. */
  length: number;
  /** Buffer holding the line; only valid during the callback. */
  bytes: Uint8Array;
  /** Index of the line's first byte in `bytes`. */
  start: number;
  /** False for a last line with no final `\n`. */
  terminated: boolean;
  /** The line ended in `\r\n` (or in `\r` at end of file). */
  crlf: boolean;
}

export interface JsonlReadSummary {
  /** Bytes consumed, counted from the reader's start offset. */
  bytesRead: number;
  /** Offset just after the last `\n` (where a later read can resume). */
  completeUpTo: number;
  /** Number of the next line after `completeUpTo`. */
  nextLine: number;
  bom: boolean;
  crlfLines: number;
  /** The data ended with bytes after the last `\n`. */
  unterminatedTail: boolean;
}

/**
 * Where a reader hands its lines. A long-lived reader of many lines should be
 * given an object with a `line` method rather than a closure: V8's optimised
 * read loop inlines the call and embeds its target weakly, and a closure made
 * per read dies with the read (the loop's code is then thrown away and
 * compiled again at the next read); an object's class outlives it.
 */
export interface LineSink {
  line(l: JsonlLine): void;
}

const LF = 0x0a;
const CR = 0x0d;

export class JsonlReader {
  private readonly sink: LineSink;
  private readonly startOffset: number;
  private position: number;
  private lineNumber: number;
  /** Copies of the bytes of a line that spans chunks, oldest first. */
  private readonly pending: Uint8Array[] = objectArray();
  private pendingLength = 0;
  private bom = false;
  private crlfLines = 0;
  private ended = false;
  private lastCompleteEnd: number;
  /** The one JsonlLine handed to onLine, refilled for every line (valid during the callback only). */
  private readonly current: JsonlLine = { line: 0, offset: 0, length: 0, bytes: new Uint8Array(0), start: 0, terminated: true, crlf: false };

  /** `startOffset`/`startLine` resume a read after a complete line (live tail); a BOM is only looked for at offset 0. */
  constructor(onLine: LineSink | ((line: JsonlLine) => void), startOffset = 0, startLine = 1) {
    this.sink = typeof onLine === "function" ? { line: onLine } : onLine;
    this.startOffset = startOffset;
    this.position = startOffset;
    this.lineNumber = startLine;
    this.lastCompleteEnd = startOffset;
  }

  push(data: Uint8Array): void {
    if (this.ended) throw new Error("JsonlReader: push after end");
    const chunk = asBuffer(data);
    let from = 0;
    const size = chunk.length;
    while (from < size) {
      const nl = indexOfByte(chunk, LF, from);
      if (nl < 0) {
        // Copy: the caller may reuse its chunk buffer for the next read.
        this.pending.push(copyOf(chunk.subarray(from)));
        this.pendingLength += size - from;
        return;
      }
      if (this.pendingLength > 0) {
        if (nl > from) this.pending.push(chunk.subarray(from, nl));
        const joined = concat(this.pending, this.pendingLength + (nl - from));
        this.pending.length = 0;
        this.pendingLength = 0;
        this.emit(joined, 0, joined.length, true);
      } else {
        this.emit(chunk, from, nl - from, true);
      }
      from = nl + 1;
    }
  }

  end(): JsonlReadSummary {
    if (!this.ended) {
      this.ended = true;
      if (this.pendingLength > 0) {
        const joined = concat(this.pending, this.pendingLength);
        this.pending.length = 0;
        this.pendingLength = 0;
        this.emit(joined, 0, joined.length, false);
        return this.summary(true);
      }
    }
    return this.summary(false);
  }

  private summary(unterminatedTail: boolean): JsonlReadSummary {
    return {
      bytesRead: this.position - this.startOffset,
      completeUpTo: unterminatedTail ? this.lastCompleteEnd : this.position,
      nextLine: unterminatedTail ? this.lineNumber - 1 : this.lineNumber,
      bom: this.bom,
      crlfLines: this.crlfLines,
      unterminatedTail,
    };
  }


  /** `rawLength` excludes the `\n` but may include a `\r` and a BOM. */
  private emit(bytes: Uint8Array, start: number, rawLength: number, terminated: boolean): void {
    const lineStartOffset = this.position;
    this.position += rawLength + (terminated ? 1 : 0);
    if (terminated) this.lastCompleteEnd = this.position;
    let s = start;
    let len = rawLength;
    let offset = lineStartOffset;
    if (offset === 0 && len >= 3 && bytes[s] === 0xef && bytes[s + 1] === 0xbb && bytes[s + 2] === 0xbf) {
      this.bom = true;
      s += 3;
      len -= 3;
      offset += 3;
    }
    let crlf = false;
    if (len > 0 && bytes[s + len - 1] === CR) {
      crlf = true;
      len -= 1;
      this.crlfLines++;
    }
    const l = this.current;
    l.line = this.lineNumber++;
    l.offset = offset;
    l.length = len;
    l.bytes = bytes;
    l.start = s;
    l.terminated = terminated;
    l.crlf = crlf;
    this.sink.line(l);
  }
}

export interface CollectedLines {
  lines: { line: number; offset: number; length: number; text: Uint8Array; terminated: boolean; crlf: boolean }[];
  summary: JsonlReadSummary;
}

/** All lines of `bytes`, pushed as the given chunks (a convenience for tests and small inputs). */
export function collectLines(chunks: readonly Uint8Array[]): CollectedLines {
  const lines: CollectedLines["lines"] = [];
  const reader = new JsonlReader((l) => {
    lines.push({
      line: l.line,
      offset: l.offset,
      length: l.length,
      text: copyOf(l.bytes.subarray(l.start, l.start + l.length)),
      terminated: l.terminated,
      crlf: l.crlf,
    });
  });
  for (const c of chunks) reader.push(c);
  return { lines, summary: reader.end() };
}

function indexOfByte(bytes: Buffer, value: number, from: number): number {
  return bytes.indexOf(value, from);
}

/** A Buffer view (no copy): Buffer.indexOf is a native memchr, much faster than a JS loop. */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function copyOf(bytes: Uint8Array): Uint8Array {
  const out = new Uint8Array(bytes.length);
  out.set(bytes);
  return out;
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0]!.length === total) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
