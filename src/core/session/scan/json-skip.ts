// JSON validated byte by byte, as JSON.parse accepts it: whitespace, strings,
// numbers, literals and nested values skipped with the position and reason of
// the first failure; the escapes seen are noted (whether each is one
// JSON.stringify writes). The entry scanner (entry-scanner.ts) and the usage
// scanner (usage-scanner.ts) read lines with these.

import { unicodeEscapeIsCanonical } from "./canonical-escape.js";

export const WHITESPACE = new Uint8Array(256);
for (const c of [0x20, 0x09, 0x0a, 0x0d]) WHITESPACE[c] = 1;

/** Bytes that end the fast run through a string: `"`, `\` and raw control characters. */
const STRING_STOP = new Uint8Array(256);
for (let c = 0; c < 0x20; c++) STRING_STOP[c] = 1;
STRING_STOP[0x22] = 1;
STRING_STOP[0x5c] = 1;

const HEX = new Uint8Array(256);
for (const ch of "0123456789abcdefABCDEF") HEX[ch.charCodeAt(0)] = 1;

const SIMPLE_ESCAPE = new Uint8Array(256);
for (const ch of '"\\/bfnrt') SIMPLE_ESCAPE[ch.charCodeAt(0)] = 1;


export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_OBJECT = 0x7d;
export const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

// Validator state for one call (synchronous, not re-entrant).
let failAt = 0;
let failReason = "";
/** Whether the last string skipped contained a backslash escape. */
let lastStringEscaped = false;
/** Whether every escape since the last resetEscapesCanonical is one JSON.stringify writes (canonical-escape.ts). */
let escapesCanonical = true;
let stack: Uint8Array = new Uint8Array(256);
export function fail(at: number, reason: string): number {
  failAt = at;
  failReason = reason;
  return -1;
}

export function skipWhitespace(b: Uint8Array, p: number, end: number): number {
  // JSON whitespace is ≤ 0x20; pi writes none, so the first test nearly always ends it.
  while (p < end) {
    const c = b[p]!;
    if (c > 0x20 || WHITESPACE[c] === 0) return p;
    p++;
  }
  return p;
}

/** `b[p]` is the opening quote; returns the index after the closing quote, or -1. */
export function skipString(b: Uint8Array, p: number, end: number): number {
  p++;
  lastStringEscaped = false;
  for (;;) {
    while (p < end && STRING_STOP[b[p]!] === 0) p++;
    if (p >= end) return fail(p, "unterminated string");
    const c = b[p]!;
    if (c === QUOTE) return p + 1;
    if (c !== BACKSLASH) return fail(p, "control character in string");
    lastStringEscaped = true;
    if (p + 1 >= end) return fail(p, "unterminated escape");
    const e = b[p + 1]!;
    if (SIMPLE_ESCAPE[e] === 1) {
      if (e === SLASH) escapesCanonical = false;
      p += 2;
    } else if (e === 0x75 /* u */) {
      if (p + 5 >= end) return fail(p, "unterminated \\u escape");
      if (!(HEX[b[p + 2]!] && HEX[b[p + 3]!] && HEX[b[p + 4]!] && HEX[b[p + 5]!])) return fail(p, "bad \\u escape");
      if (escapesCanonical && !unicodeEscapeIsCanonical(b, p, end)) escapesCanonical = false;
      p += 6;
    } else {
      return fail(p, "bad escape");
    }
  }
}

function skipDigits(b: Uint8Array, p: number, end: number): number {
  while (p < end && b[p]! >= ZERO && b[p]! <= NINE) p++;
  return p;
}

export function skipNumber(b: Uint8Array, p: number, end: number): number {
  const start = p;
  if (b[p] === MINUS) p++;
  if (p >= end) return fail(p, "bad number");
  const first = b[p]!;
  if (first === ZERO) p++;
  else if (first > ZERO && first <= NINE) p = skipDigits(b, p + 1, end);
  else return fail(start, "bad number");
  if (p < end && b[p] === DOT) {
    const q = skipDigits(b, p + 1, end);
    if (q === p + 1) return fail(p, "bad number");
    p = q;
  }
  if (p < end && (b[p] === 0x65 || b[p] === 0x45)) {
    p++;
    if (p < end && (b[p] === PLUS || b[p] === MINUS)) p++;
    const q = skipDigits(b, p, end);
    if (q === p) return fail(p, "bad number");
    p = q;
  }
  return p;
}

function skipLiteral(b: Uint8Array, p: number, end: number, word: string): number {
  if (p + word.length > end) return fail(p, "bad literal");
  for (let i = 0; i < word.length; i++) {
    if (b[p + i] !== word.charCodeAt(i)) return fail(p + i, "bad literal");
  }
  return p + word.length;
}

/** Validates one JSON value starting at `p` (after whitespace); returns the index after it, or -1. */
export function skipValue(b: Uint8Array, p: number, end: number): number {
  let depth = 0;
  for (;;) {
    // Expect a value at p.
    p = skipWhitespace(b, p, end);
    if (p >= end) return fail(p, "expected a value");
    const c = b[p]!;
    if (c === QUOTE) {
      p = skipString(b, p, end);
    } else if (c === OPEN_OBJECT) {
      p = skipWhitespace(b, p + 1, end);
      if (p < end && b[p] === CLOSE_OBJECT) {
        p++;
      } else {
        if (depth === stack.length) stack = grow(stack);
        stack[depth++] = OPEN_OBJECT;
        p = skipKeyAndColon(b, p, end);
        if (p < 0) return -1;
        continue;
      }
    } else if (c === OPEN_ARRAY) {
      p = skipWhitespace(b, p + 1, end);
      if (p < end && b[p] === CLOSE_ARRAY) {
        p++;
      } else {
        if (depth === stack.length) stack = grow(stack);
        stack[depth++] = OPEN_ARRAY;
        continue;
      }
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      p = skipNumber(b, p, end);
    } else if (c === 0x74) {
      p = skipLiteral(b, p, end, "true");
    } else if (c === 0x66) {
      p = skipLiteral(b, p, end, "false");
    } else if (c === 0x6e) {
      p = skipLiteral(b, p, end, "null");
    } else {
      return fail(p, "unexpected character");
    }
    if (p < 0) return -1;
    // After a value: close containers, or take a comma.
    for (;;) {
      if (depth === 0) return p;
      p = skipWhitespace(b, p, end);
      if (p >= end) return fail(p, "unterminated container");
      const d = b[p]!;
      const top = stack[depth - 1];
      if (d === COMMA) {
        p++;
        if (top === OPEN_OBJECT) {
          p = skipKeyAndColon(b, p, end);
          if (p < 0) return -1;
        }
        break;
      }
      if ((d === CLOSE_OBJECT && top === OPEN_OBJECT) || (d === CLOSE_ARRAY && top === OPEN_ARRAY)) {
        depth--;
        p++;
        continue;
      }
      return fail(p, "expected , or closing bracket");
    }
  }
}

export function skipKeyAndColon(b: Uint8Array, p: number, end: number): number {
  p = skipWhitespace(b, p, end);
  if (p >= end || b[p] !== QUOTE) return fail(p, "expected a key");
  p = skipString(b, p, end);
  if (p < 0) return -1;
  p = skipWhitespace(b, p, end);
  if (p >= end || b[p] !== COLON) return fail(p, "expected :");
  return p + 1;
}

function grow(s: Uint8Array): Uint8Array {
  const bigger = new Uint8Array(s.length * 2);
  bigger.set(s);
  return bigger;
}

/** Whether the last string skipped held a backslash escape. */
export function lastStringWasEscaped(): boolean {
  return lastStringEscaped;
}

/** Starts noting escapes afresh (a new line). */
export function resetEscapesCanonical(): void {
  escapesCanonical = true;
}

/** Whether every escape since resetEscapesCanonical is one JSON.stringify writes. */
export function escapesWereCanonical(): boolean {
  return escapesCanonical;
}

/** Where the last failure was, and why. */
export function lastFailAt(): number {
  return failAt;
}

export function lastFailReason(): string {
  return failReason;
}
