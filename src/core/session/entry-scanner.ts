// Fast path for reading a session line: one pass over the bytes that accepts
// exactly what JSON.parse accepts (on the line's UTF-8 decoding) and captures
// only the top-level fields of line-fields.ts, without building the body.
// Equivalence with JSON.parse is checked by property tests
// (test/unit/session/entry-scanner.test.ts).
//
// Why bytes are enough: JSON's structure is ASCII; UTF-8 never uses an ASCII
// byte inside a multi-byte sequence, and the decoder's U+FFFD replacements for
// invalid sequences can only occur where any non-ASCII is invalid (outside
// strings) or always valid (inside strings).

import { unicodeEscapeIsCanonical } from "./canonical-escape.js";
import { emptyMessageShape, type MessageShape } from "./message-shapes.js";
import { asBuffer } from "./jsonl-reader.js";
import { emptyLineFields, emptyMessageFields, setCaptured, type LineFields, type LineScan, type MessageFields } from "./line-fields.js";
import { spendFromBytes } from "./scanned-spend.js";
import { skipUsage, takeSpend } from "./usage-scanner.js";
import { decodeValue, type SliceableBuffer } from "./scanned-values.js";
import { messageKeyIndex, topKeyIndex } from "./scanned-keys.js";

// Key classification lives in scanned-keys.ts; line-skimmer.ts takes it from here.
export { messageKeyIndex, topKeyIndex };

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

/** Node's Buffer has these (undocumented, stable since v0.x); they skip toString's argument handling. */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const SLASH = 0x2f;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;


/** Placeholder for the top level, where there is no message to fill. */
const NO_MESSAGE: MessageFields = emptyMessageFields(false);

// Scanner state for one call (the scanner is synchronous and not re-entrant).
let failAt = 0;
let failReason = "";
/** Whether the last string skipped contained a backslash escape. */
let lastStringEscaped = false;
/** Whether every escape since scanLine began is one JSON.stringify writes (canonical-escape.ts). */
let escapesCanonical = true;
/** The line's `message` members, and their `role` and `content` members (message-shapes.ts). */
let messageMembers = 0;
let roleMembers = 0;
let contentMembers = 0;
const shape: MessageShape = emptyMessageShape();
let stack: Uint8Array = new Uint8Array(256);
/** skimLine in progress (line-skimmer.ts): stop at the first value the index does not need. */
let skimming = false;
/** What scanMembers returns when skimming stopped before a big value. */
export const STOPPED = -2;

function fail(at: number, reason: string): number {
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

function skipKeyAndColon(b: Uint8Array, p: number, end: number): number {
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

/**
 * Walks the members of the object at `p` (`b[p]` is `{`). `level` 0 is the line's
 * object (captures into `fields`), 1 is its `message` object (captures into `message`).
 */
function scanMembers(b: SliceableBuffer, p: number, end: number, level: 0 | 1, fields: LineFields, message: MessageFields): number {
  p = skipWhitespace(b, p + 1, end);
  if (p < end && b[p] === CLOSE_OBJECT) return p + 1;
  for (;;) {
    if (p >= end || b[p] !== QUOTE) return fail(p, "expected a key");
    const ks = p + 1;
    p = skipString(b, p, end);
    if (p < 0) return -1;
    const ke = p - 1;
    const k = level === 0 ? topKeyIndex(b, ks, ke, lastStringEscaped) : messageKeyIndex(b, ks, ke, lastStringEscaped);
    p = skipWhitespace(b, p, end);
    if (p >= end || b[p] !== COLON) return fail(p, "expected :");
    const vs = skipWhitespace(b, p + 1, end);
    if (skimming && ((level === 0 && k === -1) || (level === 1 && k === 2))) {
      if (level === 1) message.hasContent = true;
      return STOPPED;
    }
    if (level === 0 && k === -2) {
      messageMembers++;
      p = scanMessageValue(b, vs, end, fields);
      if (p === STOPPED) return STOPPED;
    } else if (level === 1 && k === 3) {
      // Validated and read in one pass (skipUsage ends where skipValue ends: property-tested).
      p = skipUsage(b, vs, end);
      if (p >= 0) {
        message.spend = takeSpend();
      } else {
        // skipValue again for the failure's position and reason.
        p = skipValue(b, vs, end);
        if (p >= 0) message.spend = spendFromBytes(b, vs, p);
      }
    } else {
      p = skipValue(b, vs, end);
      if (p < 0) return -1;
      if (level === 0) {
        if (k >= 0) setCaptured(fields, k, decodeValue(b, vs, p, lastStringEscaped));
      } else if (k === 0) {
        message.role = decodeValue(b, vs, p, lastStringEscaped);
        roleMembers++;
        shape.roleStart = vs;
        shape.roleEnd = p;
      } else if (k === 1) {
        message.timestamp = decodeValue(b, vs, p, lastStringEscaped);
      } else if (k === 2) {
        message.hasContent = true;
        contentMembers++;
        shape.contentStart = vs;
        shape.contentEnd = p;
      }
    }
    if (p < 0) return -1;
    p = skipWhitespace(b, p, end);
    if (p >= end) return fail(p, "unterminated object");
    const c = b[p];
    if (c === COMMA) {
      p = skipWhitespace(b, p + 1, end);
      continue;
    }
    if (c === CLOSE_OBJECT) return p + 1;
    return fail(p, "expected , or }");
  }
}

function scanMessageValue(b: SliceableBuffer, vs: number, end: number, fields: LineFields): number {
  const message = emptyMessageFields(false);
  let p: number;
  if (vs < end && b[vs] === OPEN_OBJECT) {
    message.isObject = true;
    p = scanMembers(b, vs, end, 1, fields, message);
  } else {
    p = skipValue(b, vs, end);
  }
  if (p >= 0 || p === STOPPED) fields.message = message;
  return p;
}

/**
 * Scans bytes [start, end) of one line (no `\n`). Accepts exactly what JSON.parse accepts
 * on the line's text; `blank` means JSON whitespace only.
 */
export function scanLine(bytes: Uint8Array, start: number, end: number): LineScan {
  const b = asBuffer(bytes) as SliceableBuffer;
  escapesCanonical = true;
  messageMembers = 0;
  roleMembers = 0;
  contentMembers = 0;
  let p = skipWhitespace(b, start, end);
  if (p >= end) return { kind: "blank" };
  const first = b[p]!;
  let result: LineScan;
  if (first === OPEN_OBJECT) {
    const fields = emptyLineFields();
    p = scanMembers(b, p, end, 0, fields, NO_MESSAGE);
    result = { kind: "object", fields };
  } else {
    p = skipValue(b, p, end);
    result = {
      kind: "value",
      valueType:
        first === OPEN_ARRAY ? "array" : first === QUOTE ? "string" : first === 0x74 || first === 0x66 ? "boolean" : first === 0x6e ? "null" : "number",
    };
  }
  if (p < 0) return { kind: "invalid", at: failAt - start, reason: failReason };
  p = skipWhitespace(b, p, end);
  if (p < end) return { kind: "invalid", at: p - start, reason: "unexpected text after the value" };
  return result;
}

/**
 * After scanLine accepted a line: whether each of its escapes is one
 * JSON.stringify writes (canonical-escape.ts; what escapesAreCanonical of
 * compaction/json-bytes.ts finds, here without another pass).
 */
export function lastLineEscapesCanonical(): boolean {
  return escapesCanonical;
}

/**
 * After scanLine accepted a line: its message's shape (positions in the
 * scanned bytes), when it holds one `message` object with one `role` member
 * before one `content` member; else undefined. The object is reused.
 */
export function lastLineMessageShape(): MessageShape | undefined {
  return messageMembers === 1 && roleMembers === 1 && contentMembers === 1 && shape.roleStart < shape.contentStart ? shape : undefined;
}

/** Whether the last string skipped held a backslash escape. */
export function lastStringWasEscaped(): boolean {
  return lastStringEscaped;
}

/**
 * The line object's members as scanMembers reads them, but returning STOPPED at
 * the first member the index does not need (for line-skimmer.ts).
 */
export function skimMembers(b: SliceableBuffer, p: number, end: number, fields: LineFields): number {
  skimming = true;
  try {
    return scanMembers(b, p, end, 0, fields, NO_MESSAGE);
  } finally {
    skimming = false;
  }
}
