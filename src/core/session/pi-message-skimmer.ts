// The skim of a long `message` line laid out byte for byte as pi writes it,
// read straight into a reused SkimmedMessage (no LineFields, no substrings):
// `{"type":"message","id":"…","parentId":"…","timestamp":"…","message":{"role":"…",…,"content":`
// (or the migrated order: type, timestamp, message, then id and parentId after
// it), and the message's trailing members from where skimLine starts them.
//
// It answers only when skimLine would accept the line with exactly the values
// it reads here; anything else (whitespace, escapes in keys or ids, non-ASCII
// ids, a timestamp not in toISOString's form, another role, a duplicate or an
// unknown leading member, a non-number in usage, …) returns false and the
// line goes through skimLine as before. So it validates what skimLine
// validates: the leading members and every member from the tail's start to
// the closing `}`, with the same search for that start (line-skimmer.ts).
// Equality with skimLine is property-tested (test/unit/session/pi-message-skimmer.test.ts).

import { skipValue } from "./entry-scanner.js";
import { isoMillisAt } from "./iso-millis.js";
import { SKIM_MIN_BYTES, TAIL_WINDOW } from "./line-skimmer.js";
import type { SliceableBuffer } from "./scanned-values.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const encoder = new TextEncoder();
const HEAD_TYPE = encoder.encode('"type":"message",');
const HEAD_ID = encoder.encode('"id":');
const HEAD_PARENT = encoder.encode('"parentId":');
const HEAD_TIMESTAMP = encoder.encode('"timestamp":"');
const HEAD_MESSAGE = encoder.encode('"message":{"role":"');
const ROLE_USER = encoder.encode('user",');
const ROLE_ASSISTANT = encoder.encode('assistant",');
const ROLE_TOOL_RESULT = encoder.encode('toolResult",');
const NULL_VALUE = encoder.encode("null");
const TAIL_USAGE = encoder.encode('"usage":');
const TAIL_TIMESTAMP = encoder.encode('"timestamp":');
const ISO_LENGTH = 24;

const KEY_OTHER = 0;
const KEY_ROLE = 1;
const KEY_TIMESTAMP = 2;
const KEY_CONTENT = 3;
const KEY_USAGE = 4;
const KEY_ID = 5;
const KEY_PARENT = 6;
const KEY_INPUT = 7;
const KEY_OUTPUT = 8;
const KEY_CACHE_READ = 9;
const KEY_CACHE_WRITE = 10;
const KEY_COST = 11;
const KEY_TOTAL = 12;
const KEY_MESSAGE = 13;
const KEY_WORDS: [string, number][] = [
  ["role", KEY_ROLE], ["timestamp", KEY_TIMESTAMP], ["content", KEY_CONTENT], ["usage", KEY_USAGE], ["id", KEY_ID],
  ["parentId", KEY_PARENT], ["input", KEY_INPUT], ["output", KEY_OUTPUT], ["cacheRead", KEY_CACHE_READ],
  ["cacheWrite", KEY_CACHE_WRITE], ["cost", KEY_COST], ["total", KEY_TOTAL], ["message", KEY_MESSAGE],
  // Captured top-level keys: never accepted after the message here.
  ["type", KEY_MESSAGE], ["targetId", KEY_MESSAGE], ["label", KEY_MESSAGE], ["name", KEY_MESSAGE], ["version", KEY_MESSAGE], ["cwd", KEY_MESSAGE],
];
const KEYS_BY_LENGTH: { bytes: Uint8Array; key: number }[][] = [];
for (const [word, key] of KEY_WORDS) (KEYS_BY_LENGTH[word.length] ??= []).push({ bytes: encoder.encode(word), key });

/** 10^k, exact for k ≤ 22. */
const POW10: number[] = [];
for (let k = 0, v = 1; k <= 22; k++, v *= 10) POW10.push(v);

/** What one skimmed message line gives the index (one object, reused line after line). */
export class SkimmedMessage {
  idStart = 0;
  idEnd = 0;
  /** FNV-1a of the id's bytes (= of its UTF-16 units: ids here are ASCII). */
  idHash = 0;
  /** -1 for a null parentId. */
  parentStart = -1;
  parentEnd = -1;
  parentHash = 0;
  /** The entry timestamp's 24 bytes start here; `millis` is its time. */
  stampStart = 0;
  millis = 0;
  role = "";
  /** message.timestamp (a number). */
  time = 0;
  hasSpend = false;
  input = 0;
  output = 0;
  cacheRead = 0;
  cacheWrite = 0;
  cost = 0;
}

// Scanner state (synchronous, not re-entrant): where the last key or value read ends, its hash.
let after = 0;
let hash = 0;

function matches(b: Uint8Array, p: number, word: Uint8Array): boolean {
  for (let i = 0; i < word.length; i++) if (b[p + i] !== word[i]) return false;
  return true;
}

/** A string of printable ASCII without `"` or `\` at `p` (its quote): sets `after` and its FNV-1a `hash`; false otherwise. */
function asciiString(b: Uint8Array, p: number, end: number): boolean {
  if (b[p] !== QUOTE) return false;
  let h = 0x811c9dc5 | 0;
  for (let q = p + 1; q < end; q++) {
    const c = b[q]!;
    if (c === QUOTE) {
      after = q + 1;
      hash = h;
      return true;
    }
    if (c < 0x20 || c >= 0x80 || c === BACKSLASH) return false;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return false;
}

/** The key at `p` (its quote) followed by `:`: its KEY_ number, or -1 for one this does not read (escaped, not ASCII). Sets `after` past the colon. */
function keyAt(b: Uint8Array, p: number, end: number): number {
  if (!asciiString(b, p, end) || b[after] !== COLON) return -1;
  const s = p + 1;
  const e = after - 1;
  after++;
  const candidates = KEYS_BY_LENGTH[e - s];
  if (candidates !== undefined) {
    for (const c of candidates) if (matches(b, s, c.bytes)) return c.key;
  }
  return KEY_OTHER;
}

/** The JSON number at `p` (sets `after`), as numberFromBytes reads it; NaN with `after` = -1 when it is none. */
function numberAt(b: SliceableBuffer, p: number, end: number): number {
  const s = p;
  const negative = b[p] === MINUS;
  if (negative) p++;
  let mantissa = 0;
  let digits = 0;
  let c = b[p]!;
  if (c === ZERO) {
    p++;
    digits = 1;
  } else if (c > ZERO && c <= NINE) {
    while (p < end && (c = b[p]!) >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      p++;
    }
  } else {
    after = -1;
    return Number.NaN;
  }
  let fraction = 0;
  if (b[p] === DOT) {
    p++;
    while (p < end && (c = b[p]!) >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO);
      digits++;
      fraction++;
      p++;
    }
    if (fraction === 0) {
      after = -1;
      return Number.NaN;
    }
  }
  c = b[p]!;
  if (c === 0x65 || c === 0x45) {
    p++;
    if (b[p] === 0x2b || b[p] === MINUS) p++;
    const from = p;
    while (p < end && b[p]! >= ZERO && b[p]! <= NINE) p++;
    if (p === from) {
      after = -1;
      return Number.NaN;
    }
    after = p;
    return Number(b.latin1Slice(s, p));
  }
  after = p;
  // ≤ 15 digits: the integer is exact and so is one division by an exact power of ten (correctly rounded, as Number()).
  if (digits > 15) return Number(b.latin1Slice(s, p));
  const value = fraction === 0 ? mantissa : mantissa / POW10[fraction]!;
  return negative ? -value : value;
}

/** After the JSON number at `p`, or -1 when there is none (the grammar numberAt reads, without the value). */
function skipNumber(b: Uint8Array, p: number, end: number): number {
  if (b[p] === MINUS) p++;
  let c = b[p]!;
  if (c === ZERO) p++;
  else if (c > ZERO && c <= NINE) while (p < end && (c = b[p]!) >= ZERO && c <= NINE) p++;
  else return -1;
  if (b[p] === DOT) {
    const from = ++p;
    while (p < end && (c = b[p]!) >= ZERO && c <= NINE) p++;
    if (p === from) return -1;
  }
  c = b[p]!;
  if (c === 0x65 || c === 0x45) {
    p++;
    if (b[p] === 0x2b || b[p] === MINUS) p++;
    const from = p;
    while (p < end && (c = b[p]!) >= ZERO && c <= NINE) p++;
    if (p === from) return -1;
  }
  return p;
}

const finite = (v: number): number => (Number.isFinite(v) ? v : 0);

/** The members of a `cost` object at `p` (`{`) when all values are numbers: cost.total (0 when absent); sets `after`; NaN when not read here. */
function costTotalAt(b: SliceableBuffer, p: number, end: number): number {
  let total = 0;
  p++;
  if (b[p] === CLOSE_OBJECT) {
    after = p + 1;
    return 0;
  }
  for (;;) {
    const key = keyAt(b, p, end);
    if (key < 0) return Number.NaN;
    const v = numberAt(b, after, end);
    if (after < 0) return Number.NaN;
    if (key === KEY_TOTAL) total = finite(v);
    p = after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    if (b[p] !== CLOSE_OBJECT) return Number.NaN;
    after = p + 1;
    return total;
  }
}

/**
 * pi's usage as pi-ai writes it, byte for byte: `#` a number read, `*` a
 * number only validated (the cost parts: pi-ai's float sums have 17+ digits,
 * which only Number() reads exactly), `?` the `,"totalTokens":` number newer
 * pi writes there. Values in `#` order.
 */
const USAGE_TEMPLATE = encoder.encode('{"input":#,"output":#,"cacheRead":#,"cacheWrite":#?,"cost":{"input":*,"output":*,"cacheRead":*,"cacheWrite":*,"total":#}}');
const TOTAL_TOKENS = encoder.encode(',"totalTokens":');
const NUMBER_SLOT = 0x23;
const SKIPPED_NUMBER_SLOT = 0x2a;
const OPTIONAL_SLOT = 0x3f;
const usageValues = new Float64Array(5);

/** usageAt for pi's own layout of a usage (false when it is laid out otherwise: then usageAt reads it). */
function piUsageAt(b: SliceableBuffer, p: number, end: number, m: SkimmedMessage): boolean {
  const t = USAGE_TEMPLATE;
  let k = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === NUMBER_SLOT) {
      usageValues[k++] = numberAt(b, p, end);
      if (after < 0) return false;
      p = after;
    } else if (c === SKIPPED_NUMBER_SLOT) {
      p = skipNumber(b, p, end);
      if (p < 0) return false;
    } else if (c === OPTIONAL_SLOT) {
      if (b[p + 2] !== 0x74 /* t */) continue;
      if (!matches(b, p, TOTAL_TOKENS)) return false;
      p = skipNumber(b, p + TOTAL_TOKENS.length, end);
      if (p < 0) return false;
    } else if (b[p++] !== c) {
      return false;
    }
  }
  after = p;
  m.hasSpend = true;
  m.input = finite(usageValues[0]!);
  m.output = finite(usageValues[1]!);
  m.cacheRead = finite(usageValues[2]!);
  m.cacheWrite = finite(usageValues[3]!);
  m.cost = finite(usageValues[4]!);
  return true;
}

/** A `usage` object whose members are numbers (cost an object of numbers) into `m`, as skipUsage reads it; sets `after`. */
function usageAt(b: SliceableBuffer, p: number, end: number, m: SkimmedMessage): boolean {
  if (b[p] !== OPEN_OBJECT) return false;
  m.hasSpend = true;
  m.input = m.output = m.cacheRead = m.cacheWrite = m.cost = 0;
  p++;
  if (b[p] === CLOSE_OBJECT) {
    after = p + 1;
    return true;
  }
  for (;;) {
    const key = keyAt(b, p, end);
    if (key < 0) return false;
    if (key === KEY_COST) {
      if (b[after] !== OPEN_OBJECT) return false;
      const total = costTotalAt(b, after, end);
      if (Number.isNaN(total)) return false;
      m.cost = total;
    } else {
      const v = finite(numberAt(b, after, end));
      if (after < 0) return false;
      if (key === KEY_INPUT) m.input = v;
      else if (key === KEY_OUTPUT) m.output = v;
      else if (key === KEY_CACHE_READ) m.cacheRead = v;
      else if (key === KEY_CACHE_WRITE) m.cacheWrite = v;
    }
    p = after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    if (b[p] !== CLOSE_OBJECT) return false;
    after = p + 1;
    return true;
  }
}

/** An id or parentId value at `p`: an ASCII string (start/end/hash into `m`), or null for parentId; sets `after`. */
function idValueAt(b: Uint8Array, p: number, end: number, m: SkimmedMessage, parent: boolean): boolean {
  if (parent && matches(b, p, NULL_VALUE)) {
    m.parentStart = m.parentEnd = -1;
    after = p + 4;
    return true;
  }
  if (!asciiString(b, p, end)) return false;
  if (parent) {
    m.parentStart = p + 1;
    m.parentEnd = after - 1;
    m.parentHash = hash;
  } else {
    m.idStart = p + 1;
    m.idEnd = after - 1;
    m.idHash = hash;
  }
  return true;
}

/**
 * A backward Horspool search on byte pairs: with the needle placed at q, the
 * pair (b[q], b[q + 1]) says how far left the next placement that could
 * match is (the nearest s ≥ 1 where the needle holds that pair at s, or its
 * last byte at s = n - 1), mostly the needle's whole length in JSON text.
 */
function pairShifts(needle: Uint8Array): Uint8Array {
  const n = needle.length;
  const shifts = new Uint8Array(65536).fill(n);
  for (let c1 = 0; c1 < 256; c1++) shifts[(needle[n - 1]! << 8) | c1] = n - 1;
  for (let s = n - 2; s >= 1; s--) shifts[(needle[s]! << 8) | needle[s + 1]!] = s;
  return shifts;
}
const USAGE_SHIFTS = pairShifts(TAIL_USAGE);
const TIMESTAMP_SHIFTS = pairShifts(TAIL_TIMESTAMP);

/** Last start of `needle` within [from, to): what skimLine's search (a native lastIndexOf on that window) finds. */
function lastIndexIn(b: Uint8Array, needle: Uint8Array, shifts: Uint8Array, from: number, to: number): number {
  let q = to - needle.length;
  while (q >= from) {
    const c = b[q]!;
    if (c === QUOTE && matches(b, q, needle)) return q;
    q -= shifts[(c << 8) | b[q + 1]!]!;
  }
  return -1;
}

const SEEN_TYPE = 1;
const SEEN_ID = 2;
const SEEN_PARENT = 4;
const SEEN_TIMESTAMP = 8;

/**
 * Reads bytes [start, end) of one line into `m` when it is a message line in
 * pi's layout that skimLine would read to the same values; false otherwise
 * (the caller then goes through skimLine). A line shorter than SKIM_MIN_BYTES
 * is validated whole, as skimLine hands it to scanLine.
 */
export function skimPiMessage(b: SliceableBuffer, start: number, end: number, m: SkimmedMessage): boolean {
  if (b[start] !== OPEN_OBJECT || b[end - 1] !== CLOSE_OBJECT) return false;
  let p = start + 1;
  let seen = 0;
  // Leading members, each once, in any order, up to the message.
  for (;;) {
    if (b[p] !== QUOTE) return false;
    const c = b[p + 1];
    if (c === 0x74 /* t */ && b[p + 2] === 0x79) {
      if ((seen & SEEN_TYPE) !== 0 || !matches(b, p, HEAD_TYPE)) return false;
      seen |= SEEN_TYPE;
      p += HEAD_TYPE.length;
      continue;
    }
    if (c === 0x69 /* i */) {
      if ((seen & SEEN_ID) !== 0 || !matches(b, p, HEAD_ID) || !idValueAt(b, p + HEAD_ID.length, end, m, false)) return false;
      seen |= SEEN_ID;
    } else if (c === 0x70 /* p */) {
      if ((seen & SEEN_PARENT) !== 0 || !matches(b, p, HEAD_PARENT) || !idValueAt(b, p + HEAD_PARENT.length, end, m, true)) return false;
      seen |= SEEN_PARENT;
    } else if (c === 0x74 /* t */) {
      if ((seen & SEEN_TIMESTAMP) !== 0 || !matches(b, p, HEAD_TIMESTAMP)) return false;
      const s = p + HEAD_TIMESTAMP.length;
      if (s + ISO_LENGTH >= end || b[s + ISO_LENGTH] !== QUOTE) return false;
      const millis = isoMillisAt(b, s);
      if (Number.isNaN(millis)) return false;
      m.stampStart = s;
      m.millis = millis;
      seen |= SEEN_TIMESTAMP;
      after = s + ISO_LENGTH + 1;
    } else if (c === 0x6d /* m */) {
      if (!matches(b, p, HEAD_MESSAGE)) return false;
      p += HEAD_MESSAGE.length;
      break;
    } else {
      return false;
    }
    p = after;
    if (b[p] !== COMMA) return false;
    p++;
  }
  if ((seen & SEEN_TYPE) === 0) return false;
  // The role, then members up to the content (validated as skimLine validates them).
  if (matches(b, p, ROLE_ASSISTANT)) {
    m.role = "assistant";
    p += ROLE_ASSISTANT.length;
  } else if (matches(b, p, ROLE_TOOL_RESULT)) {
    m.role = "toolResult";
    p += ROLE_TOOL_RESULT.length;
  } else if (matches(b, p, ROLE_USER)) {
    m.role = "user";
    p += ROLE_USER.length;
  } else {
    return false;
  }
  for (;;) {
    const key = keyAt(b, p, end);
    if (key === KEY_CONTENT) break;
    if (key !== KEY_OTHER && key !== KEY_ID && key !== KEY_PARENT && key !== KEY_INPUT && key !== KEY_OUTPUT && key !== KEY_CACHE_READ && key !== KEY_CACHE_WRITE && key !== KEY_COST && key !== KEY_TOTAL && key !== KEY_MESSAGE) return false;
    // No object or array before the content (pi writes strings there: toolCallId, toolName), so
    // no `"usage":` or `"timestamp":` key: the tail's start can only be after the content.
    if (b[after] === OPEN_OBJECT || b[after] === 0x5b) return false;
    p = skipValue(b, after, end);
    if (p < 0 || b[p] !== COMMA) return false;
    p++;
  }
  m.hasSpend = false;
  let time = Number.NaN;
  let closed = false;
  if (end - start < SKIM_MIN_BYTES) {
    // A short line is read whole, as scanLine reads it: the content validated, then the members after it.
    p = skipValue(b, after, end);
    if (p < 0) return false;
    closed = b[p] === CLOSE_OBJECT;
    if (!closed && b[p] !== COMMA) return false;
    p++;
  } else {
    // The tail: from where skimLine starts it to the end of the line.
    // skimLine searches from max(start, end - TAIL_WINDOW); nothing before the content can match (see above).
    const from = Math.max(p, end - TAIL_WINDOW);
    const usageAtTail = m.role !== "user" ? lastIndexIn(b, TAIL_USAGE, USAGE_SHIFTS, from, end) : -1;
    if (m.role === "assistant" && usageAtTail < 0) return false;
    p = usageAtTail >= 0 ? usageAtTail : lastIndexIn(b, TAIL_TIMESTAMP, TIMESTAMP_SHIFTS, from, end);
    if (p < 0) return false;
  }
  while (!closed) {
    const key = keyAt(b, p, end);
    if (key === KEY_USAGE) {
      const vs = after;
      if (!piUsageAt(b, vs, end, m) && !usageAt(b, vs, end, m)) return false;
    } else if (key === KEY_TIMESTAMP) {
      time = numberAt(b, after, end);
      if (after < 0) return false;
    } else if (key === KEY_OTHER || key >= KEY_ID) {
      after = skipValue(b, after, end);
      if (after < 0) return false;
    } else {
      return false;
    }
    p = after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    if (b[p] !== CLOSE_OBJECT) return false;
    p++;
    closed = true;
  }
  // No message timestamp in the tail: pi's activity is the entry's time (Date.parse of a toISOString form is its isoMillis).
  m.time = Number.isNaN(time) ? m.millis : time;
  // After the message: the line's end, or id and parentId (pi's v1→v3 migration puts them there).
  if (p !== end - 1) {
    if (b[p] !== COMMA) return false;
    p++;
    for (;;) {
      const key = keyAt(b, p, end);
      if (key === KEY_ID) {
        if (!idValueAt(b, after, end, m, false)) return false;
        seen |= SEEN_ID;
      } else if (key === KEY_PARENT) {
        if (!idValueAt(b, after, end, m, true)) return false;
        seen |= SEEN_PARENT;
      } else {
        return false;
      }
      p = after;
      if (b[p] === COMMA) {
        p++;
        continue;
      }
      if (p !== end - 1) return false;
      break;
    }
  }
  return seen === (SEEN_TYPE | SEEN_ID | SEEN_PARENT | SEEN_TIMESTAMP);
}
