// Walking a line of JSON as bytes, for text that is copied out as it is
// written instead of parsed and written again: where a value's bytes are what
// JSON.stringify would write for the parsed value ("canonical": compact,
// escapes as JSON.stringify makes them, numbers as String(n), object keys
// unique and not array indices, which JSON.parse would move first), the same
// bytes stand for it in another JSON document. Lines are assumed valid JSON
// (checked by an exact read) and valid UTF-8 (checked by the caller).

import { unicodeEscapeIsCanonical } from "../session/scan/canonical-escape.js";

export const QUOTE = 0x22;
export const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
export const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

function isSpace(b: number | undefined): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}

export function skipSpace(bytes: Buffer, p: number): number {
  while (isSpace(bytes[p])) p++;
  return p;
}

/** Strings are walked byte by byte this far before a native search (most keys and values are short). */
const SHORT_STRING = 24;

/** The closing quote of the string whose opening quote is at `open` (valid JSON assumed). */
export function stringEnd(bytes: Buffer, open: number): number {
  let p = open + 1;
  const n = bytes.length;
  for (const stop = Math.min(n, p + SHORT_STRING); p < stop; ) {
    const c = bytes[p]!;
    if (c === QUOTE) return p;
    p += c === BACKSLASH ? 2 : 1;
  }
  // p starts a character or an escape: backslashes before a quote count from there.
  for (;;) {
    const q = bytes.indexOf(QUOTE, p);
    if (q < 0) return -1;
    let slashes = 0;
    while (q - 1 - slashes >= p && bytes[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
    p = q + 1;
  }
}

/** Just past the JSON value at `p` (valid JSON assumed); -1 if it does not end. */
export function valueEnd(bytes: Buffer, p: number): number {
  const first = bytes[p];
  if (first === QUOTE) {
    const q = stringEnd(bytes, p);
    return q < 0 ? -1 : q + 1;
  }
  if (first === OPEN_BRACE || first === OPEN_BRACKET) {
    let depth = 0;
    for (let i = p; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (b === QUOTE) {
        i = stringEnd(bytes, i);
        if (i < 0) return -1;
      } else if (b === OPEN_BRACE || b === OPEN_BRACKET) {
        depth++;
      } else if ((b === CLOSE_BRACE || b === CLOSE_BRACKET) && --depth === 0) {
        return i + 1;
      }
    }
    return -1;
  }
  let i = p;
  for (let b = bytes[i]; b !== undefined && b !== COMMA && b !== CLOSE_BRACE && b !== CLOSE_BRACKET && !isSpace(b); b = bytes[++i]);
  return i;
}

/**
 * Walks the members of the object at `p`: `visit(keyStart, keyEnd, valueStart)`
 * gets each key's bytes (inside its quotes) and where its value starts, and
 * returns where the value ends (`valueEnd` to skip it), or -1 to stop. Returns
 * just past the closing brace, or -1 when stopped or not walkable.
 */
export function eachMember(bytes: Buffer, p: number, visit: (keyStart: number, keyEnd: number, valueStart: number) => number): number {
  if (bytes[p] !== OPEN_BRACE) return -1;
  p = skipSpace(bytes, p + 1);
  if (bytes[p] === CLOSE_BRACE) return p + 1;
  for (;;) {
    if (bytes[p] !== QUOTE) return -1;
    const q = stringEnd(bytes, p);
    if (q < 0) return -1;
    const colon = skipSpace(bytes, q + 1);
    if (bytes[colon] !== COLON) return -1;
    const end = visit(p + 1, q, skipSpace(bytes, colon + 1));
    if (end < 0) return -1;
    p = skipSpace(bytes, end);
    if (bytes[p] === CLOSE_BRACE) return p + 1;
    if (bytes[p] !== COMMA) return -1;
    p = skipSpace(bytes, p + 1);
  }
}

/** Walks the elements of the array at `p`: `visit(start)` returns where the element ends, or -1 to stop. Returns just past `]`, or -1. */
export function eachElement(bytes: Buffer, p: number, visit: (start: number) => number): number {
  if (bytes[p] !== OPEN_BRACKET) return -1;
  p = skipSpace(bytes, p + 1);
  if (bytes[p] === CLOSE_BRACKET) return p + 1;
  for (;;) {
    const end = visit(p);
    if (end < 0) return -1;
    p = skipSpace(bytes, end);
    if (bytes[p] === CLOSE_BRACKET) return p + 1;
    if (bytes[p] !== COMMA) return -1;
    p = skipSpace(bytes, p + 1);
  }
}

/** Whether bytes[start, end) spell `name` exactly (as written: an escaped spelling does not count). */
export function bytesEqual(bytes: Buffer, start: number, end: number, name: Buffer): boolean {
  if (end - start !== name.length) return false;
  for (let i = 0; i < name.length; i++) if (bytes[start + i] !== name[i]) return false;
  return true;
}

/**
 * Whether every escape in bytes[from, to) is one JSON.stringify makes
 * (canonical-escape.ts): then, the bytes being valid UTF-8, every string there
 * is written as JSON.stringify writes its value. One native search per escape.
 */
export function escapesAreCanonical(bytes: Buffer, from: number, to: number): boolean {
  let p = from;
  for (;;) {
    const b = bytes.indexOf(BACKSLASH, p);
    if (b < 0 || b >= to) return true;
    const c = bytes[b + 1];
    if (c === 0x75) {
      if (!unicodeEscapeIsCanonical(bytes, b, to)) return false;
      p = b + 6;
    } else if (c === QUOTE || c === BACKSLASH || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74) {
      p = b + 2;
    } else {
      return false;
    }
  }
}

/** Digits without a leading zero (or "0"), optionally after "-" (not "-0"), at most 15 of them: String(Number(n)) gives them back. */
function isPlainInteger(bytes: Buffer, p: number, end: number): boolean {
  const start = bytes[p] === 0x2d ? p + 1 : p;
  const digits = end - start;
  if (digits < 1 || digits > 15) return false;
  if (bytes[start] === 0x30) return digits === 1 && start === p;
  for (let i = start; i < end; i++) if (bytes[i]! < 0x30 || bytes[i]! > 0x39) return false;
  return true;
}

/** A key JSON.parse would treat as an array index (enumerated first, in numeric order): bytes [start, end). */
function isArrayIndexKey(bytes: Buffer, start: number, end: number): boolean {
  if (end <= start || end - start > 10) return false;
  for (let i = start; i < end; i++) if (bytes[i]! < 0x30 || bytes[i]! > 0x39) return false;
  if (bytes[start] === 0x30 && end - start > 1) return false;
  return Number(bytes.toString("latin1", start, end)) < 4294967295;
}

function sameBytes(bytes: Buffer, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aEnd - aStart !== bEnd - bStart) return false;
  for (let i = 0; i < aEnd - aStart; i++) if (bytes[aStart + i] !== bytes[bStart + i]) return false;
  return true;
}

/**
 * Just past the value at `p` when its bytes are exactly JSON.stringify(JSON.parse(them)),
 * given that its escapes are (escapesAreCanonical); -1 otherwise. For an object,
 * `members` receives keyStart, keyEnd (inside the quotes), valueStart, valueEnd of each member.
 */
export function canonicalValueEnd(bytes: Buffer, p: number, members?: number[]): number {
  const first = bytes[p];
  if (first === QUOTE) {
    const q = stringEnd(bytes, p);
    return q >= 0 ? q + 1 : -1;
  }
  if (first === OPEN_BRACKET) {
    p++;
    if (bytes[p] === CLOSE_BRACKET) return p + 1;
    for (;;) {
      p = canonicalValueEnd(bytes, p);
      if (p < 0) return -1;
      if (bytes[p] === CLOSE_BRACKET) return p + 1;
      if (bytes[p] !== COMMA) return -1;
      p++;
    }
  }
  if (first === OPEN_BRACE) {
    p++;
    if (bytes[p] === CLOSE_BRACE) return p + 1;
    // Each key's [start, end) inside its quotes: canonical keys are equal exactly when their bytes are.
    const keys: number[] = [];
    for (;;) {
      const keyEnd = canonicalValueEnd(bytes, p);
      if (keyEnd < 0 || bytes[p] !== QUOTE || bytes[keyEnd] !== COLON) return -1;
      const keyStart = p + 1;
      if (isArrayIndexKey(bytes, keyStart, keyEnd - 1)) return -1;
      for (let k = 0; k < keys.length; k += 2) if (sameBytes(bytes, keys[k]!, keys[k + 1]!, keyStart, keyEnd - 1)) return -1;
      keys.push(keyStart, keyEnd - 1);
      const valueStart = keyEnd + 1;
      p = canonicalValueEnd(bytes, valueStart);
      if (p < 0) return -1;
      members?.push(keyStart, keyEnd - 1, valueStart, p);
      if (bytes[p] === CLOSE_BRACE) return p + 1;
      if (bytes[p] !== COMMA) return -1;
      p++;
    }
  }
  const end = valueEnd(bytes, p);
  if (end <= p) return -1;
  if (isPlainInteger(bytes, p, end)) return end;
  const token = bytes.toString("latin1", p, end);
  if (token === "true" || token === "false" || token === "null") return end;
  return String(Number(token)) === token ? end : -1;
}

/** Escaped texts are written into shared blocks of this size (one allocation for many small texts). */
const ARENA_BYTES = 1024 * 1024;
let arena = Buffer.allocUnsafe(0);
let arenaUsed = 0;

/**
 * `text` as it sits inside a JSON string: `"` and `\` escaped (the text is
 * canonical JSON, so nothing else needs it). The result may share its memory
 * with other results (never overwritten).
 */
export function escapeJsonText(bytes: Buffer, start: number, end: number): Buffer {
  const most = 2 * (end - start);
  let out: Buffer;
  let o: number;
  if (most > ARENA_BYTES / 8) {
    out = Buffer.allocUnsafe(most);
    o = 0;
  } else {
    if (arenaUsed + most > arena.length) {
      arena = Buffer.allocUnsafe(ARENA_BYTES);
      arenaUsed = 0;
    }
    out = arena;
    o = arenaUsed;
  }
  const from = o;
  for (let i = start; i < end; i++) {
    const b = bytes[i]!;
    if (b === QUOTE || b === BACKSLASH) out[o++] = BACKSLASH;
    out[o++] = b;
  }
  if (out === arena) arenaUsed = o;
  return out.subarray(from, o);
}
