// The skim of a line laid out byte for byte as pi writes it, read straight
// into a reused SkimmedEntry (no LineFields, no record, no substrings): a
// message `{"type":"message","id":"…","parentId":"…","timestamp":"…","message":{"role":"…",…,"content":`
// (or the migrated order: type, timestamp, message, then id and parentId
// after it) and its trailing members from where skimLine starts them; a short
// line of a plain entry type (model_change, thinking_level_change, custom,
// custom_message) read whole.
//
// It answers only when skimLine would accept the line with exactly the values
// it reads here; anything else (whitespace, escapes in keys or ids, non-ASCII
// ids, a timestamp not in toISOString's form, another role or type, a
// duplicate or unknown leading member, a non-number in usage, …) returns false
// and the line goes through skimLine as before. So it validates what skimLine
// validates: a short line whole; of a long one the leading members and every
// member from the tail's start to the closing `}`, with the same search for
// that start (line-skimmer.ts). Equality with skimLine is property-tested
// (test/unit/session/pi-layout-skimmer.test.ts).

import type { EntryRecord } from "../format/entry-record.js";
import type { LineLocation } from "../format/entry-meta.js";
import { skipValue } from "../scan/entry-scanner.js";
import { isoMillisAt } from "./iso-millis.js";
import { SKIM_MIN_BYTES, TAIL_WINDOW } from "../scan/line-skimmer.js";
import type { SliceableBuffer } from "../scan/scanned-values.js";
import { asciiString, cursor, keyAt, lastIndexIn, pairStarts, tailKeyAt, KEY_CONTENT, KEY_ID, KEY_MESSAGE, KEY_OTHER, KEY_PARENT, KEY_ROLE, KEY_TIMESTAMP, KEY_USAGE, literal, matches, numberAt } from "./skim-bytes.js";
import { inSearchMemory, skimInMemory } from "./search-memory.js";
import { piUsageAt, usageAt } from "./skimmed-usage.js";
import type { SkimmedEntry } from "./skimmed-entry.js";

export { SkimmedEntry } from "./skimmed-entry.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;

const HEAD_TYPE = literal('"type":"');
const MESSAGE_TYPE = literal('message"');
const HEAD_ID = literal('"id":');
const HEAD_PARENT = literal('"parentId":');
const HEAD_TIMESTAMP = literal('"timestamp":"');
const HEAD_MESSAGE = literal('"message":{"role":"');
const ROLE_USER = literal('user",');
const ROLE_ASSISTANT = literal('assistant",');
const ROLE_TOOL_RESULT = literal('toolResult",');
const NULL_VALUE = literal("null");
const CONTENT_KEY = literal('"content":');
const TOOL_CALL_ID_KEY = literal('"toolCallId":');
const TOOL_NAME_KEY = literal('"toolName":');
const TAIL_USAGE = literal('"usage":');
const TAIL_TIMESTAMP = literal('"timestamp":');
const ISO_LENGTH = 24;
/** Entry types whose index record is type, id, parentId and timestamp alone (meta-from-fields.ts). */
const PLAIN_TYPES = ["thinking_level_change", "model_change", "custom_message", "custom"].map((type) => ({ type, bytes: literal(`${type}"`) }));

/** An id or parentId value at `p`: an ASCII string (start/end/hash into `m`), or null for parentId; sets `cursor.after`. */
function idValueAt(b: Uint8Array, p: number, end: number, m: SkimmedEntry, parent: boolean): boolean {
  if (parent && matches(b, p, NULL_VALUE)) {
    m.parentStart = m.parentEnd = -1;
    cursor.after = p + 4;
    return true;
  }
  if (!asciiString(b, p, end)) return false;
  if (parent) {
    m.parentStart = p + 1;
    m.parentEnd = cursor.after - 1;
    m.parentHash = cursor.hash;
  } else {
    m.idStart = p + 1;
    m.idEnd = cursor.after - 1;
    m.idHash = cursor.hash;
  }
  return true;
}

const USAGE_PAIRS = pairStarts(TAIL_USAGE.bytes);
const TIMESTAMP_PAIRS = pairStarts(TAIL_TIMESTAMP.bytes);

const SEEN_TYPE = 1;
const SEEN_ID = 2;
const SEEN_PARENT = 4;
const SEEN_TIMESTAMP = 8;
const SEEN_ALL = SEEN_TYPE | SEEN_ID | SEEN_PARENT | SEEN_TIMESTAMP;

/**
 * Reads bytes [start, end) of one line into `m` when it is a line in pi's
 * layout that skimLine would read to the same values; false otherwise (the
 * caller then goes through skimLine). A line shorter than SKIM_MIN_BYTES is
 * validated whole, as skimLine hands it to scanLine.
 */
export function skimPiLayout(b: SliceableBuffer, start: number, end: number, m: SkimmedEntry): boolean {
  if (b[start] !== OPEN_OBJECT || b[end - 1] !== CLOSE_OBJECT) return false;
  const short = end - start < SKIM_MIN_BYTES;
  // A long line read into the search memory: skimmed there by compiled code (wasm/skim.ts) unless it declines.
  if (!short && inSearchMemory(b) && skimInMemory(b, start, end, m)) return true;
  let p = start + 1;
  let seen = 0;
  m.type = "";
  // Leading members, each once, in any order, up to the message (or, of a short plain entry, all members).
  for (;;) {
    if (b[p] !== QUOTE) return false;
    const c = b[p + 1];
    if (c === 0x74 /* t */ && b[p + 2] === 0x79 /* y */ && matches(b, p, HEAD_TYPE)) {
      if ((seen & SEEN_TYPE) !== 0 || !typeAt(b, p + HEAD_TYPE.length, short, m)) return false;
      seen |= SEEN_TYPE;
    } else if (c === 0x69 /* i */ && matches(b, p, HEAD_ID)) {
      if ((seen & SEEN_ID) !== 0 || !idValueAt(b, p + HEAD_ID.length, end, m, false)) return false;
      seen |= SEEN_ID;
    } else if (c === 0x70 /* p */ && matches(b, p, HEAD_PARENT)) {
      if ((seen & SEEN_PARENT) !== 0 || !idValueAt(b, p + HEAD_PARENT.length, end, m, true)) return false;
      seen |= SEEN_PARENT;
    } else if (c === 0x74 /* t */ && b[p + 2] === 0x69 /* i */ && matches(b, p, HEAD_TIMESTAMP)) {
      const s = p + HEAD_TIMESTAMP.length;
      if ((seen & SEEN_TIMESTAMP) !== 0 || s + ISO_LENGTH >= end || b[s + ISO_LENGTH] !== QUOTE) return false;
      const millis = isoMillisAt(b, s);
      if (Number.isNaN(millis)) return false;
      m.stampStart = s;
      m.millis = millis;
      seen |= SEEN_TIMESTAMP;
      cursor.after = s + ISO_LENGTH + 1;
    } else if (c === 0x6d /* m */ && m.type === "message" && matches(b, p, HEAD_MESSAGE)) {
      p += HEAD_MESSAGE.length;
      break;
    } else {
      // Another member of a short plain entry (validated, not read); not one the index reads.
      if (m.type === "" || m.type === "message") return false;
      const key = keyAt(b, p, end);
      if (key < 0 || key === KEY_ID || key === KEY_PARENT || key === KEY_TIMESTAMP || key === KEY_MESSAGE || key === KEY_USAGE) return false;
      cursor.after = skipValue(b, cursor.after, end);
      if (cursor.after < 0) return false;
    }
    p = cursor.after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    return p === end - 1 && m.type !== "message" && m.type !== "" && seen === SEEN_ALL;
  }
  return messageAt(b, start, end, p, seen, short, m);
}

/**
 * skipValue of the value at `p`: a string of printable ASCII without escapes
 * (what pi writes in toolCallId, toolName, stopReason) is skipped here,
 * anything else by skipValue.
 */
function skipPlainValue(b: Uint8Array, p: number, end: number): number {
  if (b[p] === QUOTE) {
    for (let q = p + 1; q < end; q++) {
      const c = b[q]!;
      if (c === QUOTE) return q + 1;
      if (c < 0x20 || c >= 0x80 || c === BACKSLASH) break;
    }
  }
  return skipValue(b, p, end);
}

/** The type's value after `"type":"`: "message" (then `,`), or on a short line a plain type; sets `cursor.after`. */
function typeAt(b: Uint8Array, p: number, short: boolean, m: SkimmedEntry): boolean {
  if (matches(b, p, MESSAGE_TYPE)) {
    m.type = "message";
    cursor.after = p + MESSAGE_TYPE.length;
    return true;
  }
  if (!short) return false;
  for (const plain of PLAIN_TYPES) {
    if (matches(b, p, plain.bytes)) {
      m.type = plain.type;
      m.role = undefined;
      cursor.after = p + plain.bytes.length;
      return true;
    }
  }
  return false;
}

/** A message from its role (at `p`) on: the members up to the content, then the tail and what follows the message. */
function messageAt(b: SliceableBuffer, start: number, end: number, p: number, seen: number, short: boolean, m: SkimmedEntry): boolean {
  // Each literal compared only when its first byte is there (one compare per member, not one per candidate).
  const r = b[p];
  if (r === 0x61 /* a */ && matches(b, p, ROLE_ASSISTANT)) {
    m.role = "assistant";
    p += ROLE_ASSISTANT.length;
  } else if (r === 0x74 /* t */ && matches(b, p, ROLE_TOOL_RESULT)) {
    m.role = "toolResult";
    p += ROLE_TOOL_RESULT.length;
  } else if (r === 0x75 /* u */ && matches(b, p, ROLE_USER)) {
    m.role = "user";
    p += ROLE_USER.length;
  } else {
    return false;
  }
  // Members up to the content, validated as skimLine validates them (pi's own keys matched whole: what keyAt reads them as).
  for (;;) {
    let key: number;
    const c = b[p + 1];
    if (c === 0x63 /* c */ && matches(b, p, CONTENT_KEY)) {
      cursor.after = p + CONTENT_KEY.length;
      break;
    } else if (c === 0x74 /* t */ && b[p + 5] === 0x43 /* C */ && matches(b, p, TOOL_CALL_ID_KEY)) {
      key = KEY_OTHER;
      cursor.after = p + TOOL_CALL_ID_KEY.length;
    } else if (c === 0x74 /* t */ && b[p + 5] === 0x4e /* N */ && matches(b, p, TOOL_NAME_KEY)) {
      key = KEY_OTHER;
      cursor.after = p + TOOL_NAME_KEY.length;
    } else {
      key = keyAt(b, p, end);
      if (key === KEY_CONTENT) break;
    }
    if (key < 0 || key === KEY_ROLE || key === KEY_TIMESTAMP || key === KEY_USAGE) return false;
    // No object or array before the content (pi writes strings there: toolCallId, toolName), so
    // no `"usage":` or `"timestamp":` key: the tail's start can only be after the content.
    const vs = cursor.after;
    if (b[vs] === OPEN_OBJECT || b[vs] === OPEN_ARRAY) return false;
    p = skipPlainValue(b, vs, end);
    if (p < 0 || b[p] !== COMMA) return false;
    p++;
  }
  m.hasSpend = false;
  let time = Number.NaN;
  let closed = false;
  if (short) {
    // A short line is read whole, as scanLine reads it: the content validated, then the members after it.
    p = skipValue(b, cursor.after, end);
    if (p < 0) return false;
    closed = b[p] === CLOSE_OBJECT;
    if (!closed && b[p] !== COMMA) return false;
    p++;
  } else {
    // The tail, from where skimLine starts it: it searches from max(start, end - TAIL_WINDOW),
    // and nothing before the content can match (see above).
    const from = Math.max(p, start, end - TAIL_WINDOW);
    const usageAtTail = m.role !== "user" ? lastIndexIn(b, TAIL_USAGE, USAGE_PAIRS, from, end) : -1;
    if (m.role === "assistant" && usageAtTail < 0) return false;
    // A tool result's `"usage":` before the tail: skimLine scans the line (see there).
    if (m.role === "toolResult" && usageAtTail < 0 && from > p && lastIndexIn(b, TAIL_USAGE, USAGE_PAIRS, p, Math.min(end, from + TAIL_USAGE.length - 1)) >= 0) return false;
    p = usageAtTail >= 0 ? usageAtTail : lastIndexIn(b, TAIL_TIMESTAMP, TIMESTAMP_PAIRS, from, end);
    if (p < 0) return false;
  }
  while (!closed) {
    const key = tailKeyAt(b, p, end);
    const vs = cursor.after;
    if (key === KEY_USAGE) {
      if (!piUsageAt(b, vs, end, m) && !usageAt(b, vs, end, m)) return false;
    } else if (key === KEY_TIMESTAMP) {
      time = numberAt(b, vs, end);
      if (cursor.after < 0) return false;
    } else if (key === KEY_OTHER || key >= KEY_ID) {
      cursor.after = skipPlainValue(b, vs, end);
      if (cursor.after < 0) return false;
    } else {
      return false;
    }
    p = cursor.after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    if (b[p] !== CLOSE_OBJECT) return false;
    p++;
    closed = true;
  }
  // No message timestamp in the tail: a user's or assistant's may sit before the usage (skimLine
  // then scans the line exactly); otherwise pi's activity is the entry's time (Date.parse of a
  // toISOString form is its isoMillis).
  if (Number.isNaN(time) && !short && m.role !== "toolResult") return false;
  m.time = Number.isNaN(time) ? m.millis : time;
  // After the message: the line's end, or id and parentId (pi's v1→v3 migration puts them there).
  if (p !== end - 1) {
    if (b[p] !== COMMA) return false;
    p++;
    for (;;) {
      const key = tailKeyAt(b, p, end);
      if (key === KEY_ID) {
        if (!idValueAt(b, cursor.after, end, m, false)) return false;
        seen |= SEEN_ID;
      } else if (key === KEY_PARENT) {
        if (!idValueAt(b, cursor.after, end, m, true)) return false;
        seen |= SEEN_PARENT;
      } else {
        return false;
      }
      p = cursor.after;
      if (b[p] === COMMA) {
        p++;
        continue;
      }
      if (p !== end - 1) return false;
      break;
    }
  }
  return seen === SEEN_ALL;
}

/** The record recordFromFields makes of skimLine's fields for the same line (for readers that keep records, not an index). */
export function recordOfSkimmed(m: SkimmedEntry, b: SliceableBuffer, location: LineLocation): EntryRecord {
  const activity = m.role === "user" || m.role === "assistant";
  const spends = m.hasSpend && (m.role === "assistant" || m.role === "toolResult");
  return {
    line: location.line,
    offset: location.offset,
    length: location.length,
    type: m.type,
    id: b.latin1Slice(m.idStart, m.idEnd),
    parentId: m.parentStart < 0 ? null : b.latin1Slice(m.parentStart, m.parentEnd),
    timestamp: b.latin1Slice(m.stampStart, m.stampStart + ISO_LENGTH),
    role: m.role,
    activityTime: activity ? m.time : Number.NaN,
    spend: spends ? { input: m.input, output: m.output, cacheRead: m.cacheRead, cacheWrite: m.cacheWrite, cost: m.cost } : undefined,
    rare: undefined,
  };
}
