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

import { emptyMessageShape, type MessageShape } from "./message-shapes.js";
import { asBuffer } from "../bytes/jsonl-reader.js";
import { emptyLineFields, emptyMessageFields, setCaptured, type LineFields, type LineScan, type MessageFields } from "./line-fields.js";
import { spendFromBytes } from "./scanned-spend.js";
import { skipUsage, takeSpend } from "./usage-scanner.js";
import { decodeValue, type SliceableBuffer } from "./scanned-values.js";
import { messageKeyIndex, topKeyIndex } from "./scanned-keys.js";
import {
  CLOSE_OBJECT,
  COLON,
  COMMA,
  escapesWereCanonical,
  fail,
  lastFailAt,
  lastFailReason,
  lastStringWasEscaped,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  resetEscapesCanonical,
  skipString,
  skipValue,
  skipWhitespace,
} from "./json-skip.js";

// Key classification lives in scanned-keys.ts; line-skimmer.ts takes it from here.
export { messageKeyIndex, topKeyIndex };
// The validator's pieces, for the scanners and skimmers that read lines with them.
export { lastStringWasEscaped, skipNumber, skipString, skipValue, skipWhitespace, WHITESPACE } from "./json-skip.js";

/** Placeholder for the top level, where there is no message to fill. */
const NO_MESSAGE: MessageFields = emptyMessageFields(false);

// Scanner state for one call (the scanner is synchronous and not re-entrant).
/** The line's `message` members, and their `role` and `content` members (message-shapes.ts). */
let messageMembers = 0;
let roleMembers = 0;
let contentMembers = 0;
const shape: MessageShape = emptyMessageShape();
/** skimLine in progress (line-skimmer.ts): stop at the first value the index does not need. */
let skimming = false;
/** What scanMembers returns when skimming stopped before a big value. */
export const STOPPED = -2;

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
    const k = level === 0 ? topKeyIndex(b, ks, ke, lastStringWasEscaped()) : messageKeyIndex(b, ks, ke, lastStringWasEscaped());
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
        if (k >= 0) setCaptured(fields, k, decodeValue(b, vs, p, lastStringWasEscaped()));
      } else if (k === 0) {
        message.role = decodeValue(b, vs, p, lastStringWasEscaped());
        roleMembers++;
        shape.roleStart = vs;
        shape.roleEnd = p;
      } else if (k === 1) {
        message.timestamp = decodeValue(b, vs, p, lastStringWasEscaped());
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
  resetEscapesCanonical();
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
  if (p < 0) return { kind: "invalid", at: lastFailAt() - start, reason: lastFailReason() };
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
  return escapesWereCanonical();
}

/**
 * After scanLine accepted a line: its message's shape (positions in the
 * scanned bytes), when it holds one `message` object with one `role` member
 * before one `content` member; else undefined. The object is reused.
 */
export function lastLineMessageShape(): MessageShape | undefined {
  return messageMembers === 1 && roleMembers === 1 && contentMembers === 1 && shape.roleStart < shape.contentStart ? shape : undefined;
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
