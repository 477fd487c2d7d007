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
/** Escaped messages are joined into pieces of about this many bytes (fewer, larger writes). */
const ESCAPED_CHUNK_BYTES = 256 * 1024;

export class TranscriptBuilder {
  private readonly chunks: TranscriptPiece[] = [];
  private parts: string[] = [];
  private escaped: Buffer[] = [];
  private escapedBytes = 0;
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
    if (text.escaped.length === 0) return;
    this.flushParts();
    if (this.escaped.length > 0) this.pushEscaped(ESCAPED_PARAGRAPH);
    for (const segment of text.escaped) this.pushEscaped(segment);
    if (this.escapedBytes >= ESCAPED_CHUNK_BYTES) this.flushEscaped();
  }

  private addText(text: string): void {
    if (text === "") return;
    this.flushEscaped();
    this.parts.push(text);
    if (this.parts.length >= PARTS_PER_CHUNK) this.flushParts();
  }

  private pushEscaped(segment: Buffer): void {
    this.escaped.push(segment);
    this.escapedBytes += segment.length;
  }

  private flushParts(): void {
    if (this.parts.length > 0) this.chunks.push(this.parts.join("\n\n"));
    this.parts = [];
  }

  private flushEscaped(): void {
    if (this.escaped.length > 0) this.chunks.push({ escaped: Buffer.concat(this.escaped, this.escapedBytes) });
    this.escaped = [];
    this.escapedBytes = 0;
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
