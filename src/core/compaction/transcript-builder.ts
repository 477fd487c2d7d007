// serializeConversation(convertToLlm(messages)) built one message at a time, for
// a history read in one pass: each message's parts are joined by "\n\n" (never
// empty), as between messages, and kept as pieces, never as one string. A
// message may come already escaped for JSON (escaped-message.ts): those are
// kept as bytes, to be written out as they are.

import type { ContextMessage } from "../context/context-message.js";
import type { TranscriptFunctions } from "./describe-preparation.js";
import { ESCAPED_PARAGRAPH, type DirectText } from "./escaped-message.js";

/** A piece already escaped as it sits inside a JSON string (UTF-8 bytes, as `prepare --json` writes it). */
export interface EscapedPiece {
  readonly escaped: Buffer;
}

export type TranscriptPiece = string | EscapedPiece;

/**
 * A serialised transcript kept in pieces joined by "\n\n" (a piece is never
 * empty): a 40 MB history is written out piece by piece, never built as one string.
 */
export interface TranscriptText {
  readonly pieces: readonly TranscriptPiece[];
  /** The joined text's length (escaped pieces are decoded to count it). */
  readonly length: number;
}

/** The text of a piece. */
export function pieceText(piece: TranscriptPiece): string {
  return typeof piece === "string" ? piece : (JSON.parse(`"${piece.escaped.toString("utf8")}"`) as string);
}

export function transcriptOf(text: string): TranscriptText {
  return { pieces: text === "" ? [] : [text], length: text.length };
}

export function transcriptString(transcript: TranscriptText): string {
  return transcript.pieces.map(pieceText).join("\n\n");
}

/**
 * Parts joined this many at a time, so the text does not hold on to the bodies
 * it was cut from. Small pieces stay one-byte strings unless one of their own
 * characters is not Latin-1, which makes escaping and writing them out about
 * twice as fast as pieces that caught one.
 */
const PARTS_PER_CHUNK = 32;
/** Escaped messages are written into blocks of about this many bytes (pieces: fewer, larger writes). */
const ESCAPED_CHUNK_BYTES = 256 * 1024;
/** Segments shorter than this are copied byte by byte (a native copy costs more to call). */
const SHORT_SEGMENT = 48;

export class TranscriptBuilder {
  private readonly chunks: TranscriptPiece[] = [];
  private parts: string[] = [];
  /** The escaped block being written: [0, used) holds whole messages joined by an escaped "\n\n". */
  private block: Buffer | null = null;
  private used = 0;
  /** Messages added (pi's messagesToSummarize.length). */
  count = 0;

  constructor(private readonly transcript: TranscriptFunctions) {}

  add(message: ContextMessage): void {
    this.count++;
    this.addText(this.transcript.serializeConversation(this.transcript.convertToLlm([message])));
  }

  /** A message serialised elsewhere (escaped-message.ts): its text, or its escaped segments to concatenate. */
  addDirect(text: DirectText): void {
    this.count++;
    if ("text" in text) {
      this.addText(text.text);
      return;
    }
    const segments = text.escaped;
    if (segments.length === 0) return;
    let bytes = 0;
    for (let i = 0; i < segments.length; i++) bytes += segments[i]!.length;
    const block = this.reserve(bytes);
    let at = this.used;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const n = segment.length;
      if (n < SHORT_SEGMENT) for (let k = 0; k < n; k++) block[at + k] = segment[k]!;
      else block.set(segment, at);
      at += n;
    }
    this.used = at;
    if (this.used >= ESCAPED_CHUNK_BYTES) this.flushEscaped();
  }

  private addText(text: string): void {
    if (text === "") return;
    if (this.block !== null) {
      // Among escaped messages: escaped as `--json` writes it (one piece the more otherwise).
      const escaped = JSON.stringify(text);
      const bytes = Buffer.byteLength(escaped) - 2;
      const block = this.reserve(bytes);
      this.used += block.write(escaped.slice(1, -1), this.used, bytes, "utf8");
      if (this.used >= ESCAPED_CHUNK_BYTES) this.flushEscaped();
      return;
    }
    this.parts.push(text);
    if (this.parts.length >= PARTS_PER_CHUNK) this.flushParts();
  }

  /** The block with room for a message of `bytes` after the escaped "\n\n" that joins it to the one before. */
  private reserve(bytes: number): Buffer {
    this.flushParts();
    let block = this.block;
    const joined = block !== null && this.used > 0;
    const need = bytes + (joined ? ESCAPED_PARAGRAPH.length : 0);
    if (block !== null && this.used + need > block.length) {
      this.flushEscaped();
      block = null;
    }
    if (block === null) {
      block = Buffer.allocUnsafe(Math.max(ESCAPED_CHUNK_BYTES + ESCAPED_CHUNK_BYTES / 4, bytes));
      this.block = block;
      this.used = 0;
      return block;
    }
    if (this.used > 0) {
      block.set(ESCAPED_PARAGRAPH, this.used);
      this.used += ESCAPED_PARAGRAPH.length;
    }
    return block;
  }

  private flushParts(): void {
    if (this.parts.length > 0) this.chunks.push(this.parts.join("\n\n"));
    this.parts = [];
  }

  private flushEscaped(): void {
    if (this.block !== null && this.used > 0) this.chunks.push({ escaped: this.block.subarray(0, this.used) });
    // The rest of a block is not used again: a piece never shares memory that is still written.
    this.block = null;
    this.used = 0;
  }

  text(): TranscriptText {
    this.flushParts();
    this.flushEscaped();
    const pieces = this.chunks;
    let length: number | undefined;
    return {
      pieces,
      get length() {
        if (length === undefined) {
          length = 2 * Math.max(0, pieces.length - 1);
          for (const piece of pieces) length += typeof piece === "string" ? piece.length : pieceText(piece).length;
        }
        return length;
      },
    };
  }
}
