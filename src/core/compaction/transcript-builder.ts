// serializeConversation(convertToLlm(messages)) built one message at a time, for
// a history read in one pass: each message's parts are joined by "\n\n" (never
// empty), as between messages, and kept as pieces, never as one string.

import type { ContextMessage } from "../context/context-message.js";
import type { TranscriptFunctions } from "./describe-preparation.js";

/**
 * A serialised transcript kept in pieces joined by "\n\n" (a piece is never
 * empty): a 40 MB history is written out piece by piece, never built as one string.
 */
export interface TranscriptText {
  readonly pieces: readonly string[];
  /** The joined text's length. */
  readonly length: number;
}

export function transcriptOf(text: string): TranscriptText {
  return { pieces: text === "" ? [] : [text], length: text.length };
}

export function transcriptString(transcript: TranscriptText): string {
  return transcript.pieces.join("\n\n");
}

/**
 * Parts joined this many at a time, so the text does not hold on to the bodies
 * it was cut from. Small pieces stay one-byte strings unless one of their own
 * characters is not Latin-1, which makes escaping and writing them out about
 * twice as fast as pieces that caught one.
 */
const PARTS_PER_CHUNK = 32;

export class TranscriptBuilder {
  private readonly chunks: string[] = [];
  private parts: string[] = [];
  /** Messages added (pi's messagesToSummarize.length). */
  count = 0;

  constructor(private readonly transcript: TranscriptFunctions) {}

  add(message: ContextMessage): void {
    this.count++;
    const text = this.transcript.serializeConversation(this.transcript.convertToLlm([message]));
    if (text === "") return;
    this.parts.push(text);
    if (this.parts.length >= PARTS_PER_CHUNK) this.flush();
  }

  private flush(): void {
    if (this.parts.length > 0) this.chunks.push(this.parts.join("\n\n"));
    this.parts = [];
  }

  text(): TranscriptText {
    this.flush();
    let length = 0;
    for (const chunk of this.chunks) length += chunk.length;
    return { pieces: this.chunks, length: length + 2 * Math.max(0, this.chunks.length - 1) };
  }
}
