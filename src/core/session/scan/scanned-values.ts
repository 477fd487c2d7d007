// Values of a line the entry scanner has validated, decoded from its bytes:
// keys and strings without escapes straight from UTF-8 (the entry types and
// roles every line repeats as shared strings), anything else through JSON.parse.

import { KNOWN_ENTRY_TYPES } from "../format/types.js";

export type SliceableBuffer = Buffer & { utf8Slice(start: number, end: number): string; latin1Slice(start: number, end: number): string };

const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const encoder = new TextEncoder();

export function bytesEqual(b: Uint8Array, s: number, e: number, key: Uint8Array): boolean {
  if (e - s !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (b[s + i] !== key[i]) return false;
  return true;
}

/** Values that recur on every line (entry types, roles): returned as shared strings, not re-decoded. */
const COMMON_WORDS: Uint8Array[][] = [];
const COMMON_STRINGS: string[][] = [];
for (const word of ["session", ...KNOWN_ENTRY_TYPES, "user", "assistant", "toolResult", "bashExecution", "branchSummary", "compactionSummary"]) {
  (COMMON_WORDS[word.length] ??= []).push(encoder.encode(word));
  (COMMON_STRINGS[word.length] ??= []).push(word);
}

/** Text of bytes [s, e) that hold no `"`, `\\` or control character. */
function plainText(b: SliceableBuffer, s: number, e: number): string {
  const words = COMMON_WORDS[e - s];
  if (words !== undefined) {
    for (let i = 0; i < words.length; i++) if (bytesEqual(b, s, e, words[i]!)) return COMMON_STRINGS[e - s]![i]!;
  }
  return b.utf8Slice(s, e);
}

/** The key text of a validated key string whose quotes are at s-1 and e. */
export function keyText(b: SliceableBuffer, s: number, e: number, escaped: boolean): string {
  return escaped ? (JSON.parse(b.utf8Slice(s - 1, e + 1)) as string) : plainText(b, s, e);
}

/**
 * The validated JSON number at [s, e). Integers of up to 15 digits (timestamps,
 * token counts) are summed digit by digit, exactly; anything else goes through
 * Number() (JSON's number grammar is a subset of Number()'s; both round alike).
 */
export function numberFromBytes(b: SliceableBuffer, s: number, e: number): number {
  let p = s;
  const negative = b[p] === MINUS;
  if (negative) p++;
  if (e - p > 15) return Number(b.latin1Slice(s, e));
  let value = 0;
  for (; p < e; p++) {
    const digit = b[p]! - ZERO;
    if (digit < 0 || digit > 9) return Number(b.latin1Slice(s, e));
    value = value * 10 + digit;
  }
  return negative ? -value : value;
}

/** The JSON value of validated bytes [s, e) (JSON.parse for containers and escaped strings). */
export function decodeValue(b: SliceableBuffer, s: number, e: number, escapedString: boolean): unknown {
  const c = b[s]!;
  if (c === QUOTE) return escapedString ? (JSON.parse(b.utf8Slice(s, e)) as unknown) : plainText(b, s + 1, e - 1);
  if (c === 0x74) return true;
  if (c === 0x66) return false;
  if (c === 0x6e) return null;
  if (c === MINUS || (c >= ZERO && c <= NINE)) return numberFromBytes(b, s, e);
  return JSON.parse(b.utf8Slice(s, e)) as unknown;
}

