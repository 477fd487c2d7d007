// AssemblyScript (not TypeScript): the search memory's module, built by
// scripts/build-wasm.mjs into src/core/session/skim/search-memory-module.ts.
//
// - lastIndexOf: the skim's backward search for a message's tail, with SIMD
//   (16 candidate starts per step).
// - skimMessage: skimPiLayout (src/core/session/skim/pi-layout-skimmer.ts) of a
//   long message line, on the common subset of pi's layout: the same checks
//   in the same order, the values it reads written to RESULT. Anything it
//   does not read (short lines, other entry types, a value that is not a
//   plain string, number or literal, escapes, a number only Number() reads
//   exactly outside cost.total, another usage layout) makes it decline, and
//   the line goes through skimPiLayout in JS. Equality with skimPiLayout is
//   property-tested (test/unit/session/pi-layout-skimmer.test.ts).
//
// Positions are absolute addresses in this memory. A read past `end` gives 0
// (skimPiLayout reads the `\n`, `\r` or nothing there: none of them is a byte
// it compares with).

import {
  isContentKey, isFalse, isHeadId, isHeadMessage, isHeadParent, isHeadTimestamp, isHeadType, isMessageType, isNull,
  isRoleAssistant, isRoleToolResult, isRoleUser, isTimestampKey, isToolCallIdKey, isToolNameKey, isTrue, isUsageCacheRead,
  isUsageCacheWrite, isUsageCostInput, isUsageInput, isUsageKey, isUsageOutput, isUsageTotal, isUsageTotalTokens,
  ContentKeyLength, HeadIdLength, HeadMessageLength, HeadParentLength, HeadTimestampLength, HeadTypeLength, MessageTypeLength,
  RoleAssistantLength, RoleToolResultLength, RoleUserLength, TimestampKeyLength, ToolCallIdKeyLength, ToolNameKeyLength,
  UsageCacheReadLength, UsageCacheWriteLength, UsageCostInputLength, UsageInputLength, UsageKeyLength, UsageOutputLength,
  UsageTotalLength, UsageTotalTokensLength,
} from "./literals";

/** Where skimMessage writes what it read: f64s, then i32s (exported: search-memory.ts reads the layout from the module). */
export const RESULT: usize = 32768;
export const R_MILLIS: usize = 0;
export const R_TIME: usize = 8;
export const R_INPUT: usize = 16;
export const R_OUTPUT: usize = 24;
export const R_CACHE_READ: usize = 32;
export const R_CACHE_WRITE: usize = 40;
export const R_COST: usize = 48;
export const R_ID_START: usize = 56;
export const R_ID_END: usize = 60;
export const R_ID_HASH: usize = 64;
export const R_PARENT_START: usize = 68;
export const R_PARENT_END: usize = 72;
export const R_PARENT_HASH: usize = 76;
export const R_STAMP_START: usize = 80;
export const R_ROLE: usize = 84;
export const R_HAS_SPEND: usize = 88;
/** cost.total's bytes when only Number() reads it exactly (more than 15 digits, an exponent); -1 otherwise. */
export const R_COST_START: usize = 92;
export const R_COST_END: usize = 96;

const ROLE_USER: i32 = 1;
const ROLE_ASSISTANT: i32 = 2;
const ROLE_TOOL_RESULT: i32 = 3;

const QUOTE: u8 = 0x22;
const BACKSLASH: u8 = 0x5c;
const COMMA: u8 = 0x2c;
const COLON: u8 = 0x3a;
const OPEN_OBJECT: u8 = 0x7b;
const CLOSE_OBJECT: u8 = 0x7d;
const MINUS: u8 = 0x2d;
const DOT: u8 = 0x2e;
const ZERO: u8 = 0x30;
const NINE: u8 = 0x39;

const SKIM_MIN_BYTES: i32 = 256;
const TAIL_WINDOW: i32 = 4096;
const ISO_LENGTH: i32 = 24;

const SEEN_TYPE: i32 = 1;
const SEEN_ID: i32 = 2;
const SEEN_PARENT: i32 = 4;
const SEEN_TIMESTAMP: i32 = 8;
const SEEN_ALL: i32 = 15;

/** Where the last key or value read ends (-1: none there), the last ASCII string's FNV-1a hash. */
let after: i32 = 0;
let hash: i32 = 0;
/** The last number read is one only Number() reads exactly (numberAt then gives NaN). */
let numberNeedsText: bool = false;

/** 10^k, exact for k ≤ 22. */
const POW10: usize = memory.data<f64>([1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15]);

@inline function byte(p: i32, end: i32): u8 {
  return p < end ? load<u8>(<usize>p) : 0;
}

@inline function isDigit(c: u8): bool {
  return c >= ZERO && c <= NINE;
}

// ---- The tail search ----

/** Whether the n bytes at q are the needle's (`head`: its first 8 bytes). */
@inline function needleAt(q: i32, needle: i32, n: i32, head: u64): bool {
  if (load<u64>(<usize>q) != head) return false;
  for (let k = 8; k < n; k++) if (load<u8>(<usize>(q + k)) != load<u8>(<usize>(needle + k))) return false;
  return true;
}

/** The last q in [from, to - n] where the n bytes at q equal the n bytes at `needle` (8 ≤ n), or -1. */
export function lastIndexOf(from: i32, to: i32, needle: i32, n: i32): i32 {
  if (to - from < n) return -1;
  const first = i8x16.splat(load<u8>(<usize>needle));
  const last = i8x16.splat(load<u8>(<usize>(needle + n - 1)));
  const head = load<u64>(<usize>needle);
  // A block: the 16 candidate starts [block, block + 16), the highest first;
  // bit i of the mask: the needle's first and last bytes are at block + i.
  let block = to - n - 15;
  while (block >= from) {
    let mask = i8x16.bitmask(v128.and(i8x16.eq(v128.load(<usize>block), first), i8x16.eq(v128.load(<usize>(block + n - 1)), last)));
    while (mask != 0) {
      const bit = 31 - clz<i32>(mask);
      mask ^= 1 << bit;
      const q = block + bit;
      if (needleAt(q, needle, n, head)) return q;
    }
    block -= 16;
  }
  // The starts left below the last whole block, one by one.
  for (let q = block + 15; q >= from; q--) if (needleAt(q, needle, n, head)) return q;
  return -1;
}

/** The needles skimMessage searches for, placed by search-memory.ts (their addresses and lengths). */
let usageNeedle: i32 = -1;
let timestampNeedle: i32 = -1;

export function setNeedles(usage: i32, timestamp: i32): void {
  usageNeedle = usage;
  timestampNeedle = timestamp;
}

// ---- Pieces (skim-bytes.ts, iso-millis.ts) ----

/** A string of printable ASCII without `"` or `\` at p (its quote): sets `after` and `hash`. */
function asciiString(p: i32, end: i32): bool {
  if (byte(p, end) != QUOTE) return false;
  let h: i32 = <i32>0x811c9dc5;
  for (let q = p + 1; q < end; q++) {
    const c = load<u8>(<usize>q);
    if (c == QUOTE) {
      after = q + 1;
      hash = h;
      return true;
    }
    if (c < 0x20 || c >= 0x80 || c == BACKSLASH) return false;
    h = (h ^ <i32>c) * 0x01000193;
  }
  return false;
}

/** An id or parentId value at p (idValueAt): an ASCII string, or null for a parent; sets `after` and the result. */
function idValueAt(p: i32, end: i32, parent: bool): bool {
  if (parent && isNull(p, end)) {
    store<i32>(RESULT + R_PARENT_START, -1);
    store<i32>(RESULT + R_PARENT_END, -1);
    after = p + 4;
    return true;
  }
  if (!asciiString(p, end)) return false;
  store<i32>(RESULT + (parent ? R_PARENT_START : R_ID_START), p + 1);
  store<i32>(RESULT + (parent ? R_PARENT_END : R_ID_END), after - 1);
  store<i32>(RESULT + (parent ? R_PARENT_HASH : R_ID_HASH), hash);
  return true;
}

/** The number of `count` digits at p, or -1. */
@inline function digitsAt(p: i32, count: i32): i32 {
  let n = 0;
  for (let k = p; k < p + count; k++) {
    const d = <i32>load<u8>(<usize>k) - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** isoMillisAt of the 24 bytes at p (the caller checked they are in the line), NaN when not toISOString's form of a real date. */
function isoMillisAt(p: i32): f64 {
  if (load<u8>(<usize>(p + 4)) != 0x2d || load<u8>(<usize>(p + 7)) != 0x2d || load<u8>(<usize>(p + 10)) != 0x54 || load<u8>(<usize>(p + 13)) != 0x3a) return NaN;
  if (load<u8>(<usize>(p + 16)) != 0x3a || load<u8>(<usize>(p + 19)) != 0x2e || load<u8>(<usize>(p + 23)) != 0x5a) return NaN;
  const year = digitsAt(p, 4);
  const month = digitsAt(p + 5, 2);
  const day = digitsAt(p + 8, 2);
  const hour = digitsAt(p + 11, 2);
  const minute = digitsAt(p + 14, 2);
  const second = digitsAt(p + 17, 2);
  const ms = digitsAt(p + 20, 3);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return NaN;
  const leap = month == 2 && year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
  let monthDays = 31;
  if (month == 2) monthDays = leap ? 29 : 28;
  else if (month == 4 || month == 6 || month == 9 || month == 11) monthDays = 30;
  if (day > monthDays) return NaN;
  // Days since 1970-01-01 (days_from_civil; y ≥ 999, so the divisions are floors).
  const y = month <= 2 ? year - 1 : year;
  const era = y / 400;
  const yoe = y - era * 400;
  const doy = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1;
  const days = era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
  return <f64>days * 86400000 + <f64>hour * 3600000 + <f64>minute * 60000 + <f64>second * 1000 + <f64>ms;
}

/** After a number's exponent at p (`e` or `E`, a sign, digits): p when there is none there, -1 when it has no digits. */
@inline function afterExponent(p: i32, end: i32): i32 {
  const c = byte(p, end);
  if (c != 0x65 && c != 0x45) return p;
  p++;
  const sign = byte(p, end);
  if (sign == 0x2b || sign == MINUS) p++;
  const from = p;
  while (p < end && isDigit(load<u8>(<usize>p))) p++;
  return p == from ? -1 : p;
}

/**
 * The JSON number at p as numberAt reads it (sets `after`; -1 and NaN when
 * there is none); NaN with numberNeedsText when only Number() reads it
 * exactly (an exponent, more than 15 digits).
 */
function numberAt(p: i32, end: i32): f64 {
  numberNeedsText = false;
  const negative = byte(p, end) == MINUS;
  if (negative) p++;
  let mantissa: f64 = 0;
  let digits = 0;
  let c = byte(p, end);
  if (c == ZERO) {
    p++;
    digits = 1;
  } else if (c > ZERO && c <= NINE) {
    while (p < end && isDigit((c = load<u8>(<usize>p)))) {
      mantissa = mantissa * 10 + <f64>(c - ZERO);
      digits++;
      p++;
    }
  } else {
    after = -1;
    return NaN;
  }
  let fraction = 0;
  if (byte(p, end) == DOT) {
    p++;
    while (p < end && isDigit((c = load<u8>(<usize>p)))) {
      mantissa = mantissa * 10 + <f64>(c - ZERO);
      digits++;
      fraction++;
      p++;
    }
    if (fraction == 0) {
      after = -1;
      return NaN;
    }
  }
  const e = afterExponent(p, end);
  if (e < 0) {
    after = -1;
    return NaN;
  }
  if (e != p) {
    after = e;
    numberNeedsText = true;
    return NaN;
  }
  after = p;
  if (digits > 15) {
    numberNeedsText = true;
    return NaN;
  }
  const value = fraction == 0 ? mantissa : mantissa / load<f64>(POW10 + (<usize>fraction << 3));
  return negative ? -value : value;
}

/** After the JSON number at p, or -1 (skipNumber). */
function skipNumber(p: i32, end: i32): i32 {
  if (byte(p, end) == MINUS) p++;
  let c = byte(p, end);
  if (c == ZERO) p++;
  else if (c > ZERO && c <= NINE) while (p < end && isDigit(load<u8>(<usize>p))) p++;
  else return -1;
  if (byte(p, end) == DOT) {
    const from = ++p;
    while (p < end && isDigit(load<u8>(<usize>p))) p++;
    if (p == from) return -1;
  }
  return afterExponent(p, end);
}

/** After a value read here (a string of printable ASCII without escapes, a number, true, false or null), or -1 (declined). */
function skipSimpleValue(p: i32, end: i32): i32 {
  const c = byte(p, end);
  if (c == QUOTE) {
    for (let q = p + 1; q < end; q++) {
      const d = load<u8>(<usize>q);
      if (d == QUOTE) return q + 1;
      if (d < 0x20 || d >= 0x80 || d == BACKSLASH) return -1;
    }
    return -1;
  }
  if (c == MINUS || isDigit(c)) return skipNumber(p, end);
  if (isTrue(p, end) || isNull(p, end)) return p + 4;
  if (isFalse(p, end)) return p + 5;
  return -1;
}

const KEY_UNREAD: i32 = -1;
const KEY_OTHER: i32 = 0;
const KEY_TIMESTAMP: i32 = 1;
const KEY_USAGE: i32 = 2;
const KEY_ID: i32 = 3;
const KEY_PARENT: i32 = 4;
/** role, content: keys the tail must not hold (skimPiLayout declines them). */
const KEY_REFUSED: i32 = 5;

/**
 * The key at p (its quote) followed by `:`, as tailKeyAt reads it: which of
 * the keys the tail treats apart it is, KEY_OTHER for any other key of
 * printable ASCII without escapes, KEY_UNREAD otherwise. Sets `after` past the colon.
 */
function tailKeyAt(p: i32, end: i32): i32 {
  if (byte(p, end) != QUOTE) return KEY_UNREAD;
  const s = p + 1;
  let e = s;
  while (true) {
    if (e >= end) return KEY_UNREAD;
    const c = load<u8>(<usize>e);
    if (c == QUOTE) break;
    if (c < 0x20 || c >= 0x80 || c == BACKSLASH) return KEY_UNREAD;
    e++;
  }
  if (byte(e + 1, end) != COLON) return KEY_UNREAD;
  after = e + 2;
  const length = e - s;
  if (length == 9 && isTimestampKey(p, end)) return KEY_TIMESTAMP;
  if (length == 5 && isUsageKey(p, end)) return KEY_USAGE;
  if (length == 2 && isHeadId(p, end)) return KEY_ID;
  if (length == 8 && isHeadParent(p, end)) return KEY_PARENT;
  if (length == 7 && isContentKey(p, end)) return KEY_REFUSED;
  if (length == 4 && load<u32>(<usize>s) == 0x656c6f72 /* role */) return KEY_REFUSED;
  return KEY_OTHER;
}

/** pi's usage layout at p (piUsageAt), into RESULT; false when not read here. */
function piUsageAt(p: i32, end: i32): bool {
  if (!isUsageInput(p, end)) return false;
  const input = numberAt(p + UsageInputLength, end);
  p = after;
  if (numberNeedsText || p < 0 || !isUsageOutput(p, end)) return false;
  const output = numberAt(p + UsageOutputLength, end);
  p = after;
  if (numberNeedsText || p < 0 || !isUsageCacheRead(p, end)) return false;
  const cacheRead = numberAt(p + UsageCacheReadLength, end);
  p = after;
  if (numberNeedsText || p < 0 || !isUsageCacheWrite(p, end)) return false;
  const cacheWrite = numberAt(p + UsageCacheWriteLength, end);
  p = after;
  if (numberNeedsText || p < 0) return false;
  if (byte(p + 2, end) == 0x74 /* t */) {
    if (!isUsageTotalTokens(p, end)) return false;
    p = skipNumber(p + UsageTotalTokensLength, end);
    if (p < 0) return false;
  }
  if (!isUsageCostInput(p, end)) return false;
  p = skipNumber(p + UsageCostInputLength, end);
  if (p < 0 || !isUsageOutput(p, end)) return false;
  p = skipNumber(p + UsageOutputLength, end);
  if (p < 0 || !isUsageCacheRead(p, end)) return false;
  p = skipNumber(p + UsageCacheReadLength, end);
  if (p < 0 || !isUsageCacheWrite(p, end)) return false;
  p = skipNumber(p + UsageCacheWriteLength, end);
  if (p < 0 || !isUsageTotal(p, end)) return false;
  const costStart = p + UsageTotalLength;
  const cost = numberAt(costStart, end);
  p = after;
  if (p < 0 || byte(p, end) != CLOSE_OBJECT || byte(p + 1, end) != CLOSE_OBJECT) return false;
  after = p + 2;
  store<i32>(RESULT + R_HAS_SPEND, 1);
  // finite(): the numbers read here have at most 15 digits, so they are finite.
  store<f64>(RESULT + R_INPUT, input);
  store<f64>(RESULT + R_OUTPUT, output);
  store<f64>(RESULT + R_CACHE_READ, cacheRead);
  store<f64>(RESULT + R_CACHE_WRITE, cacheWrite);
  store<f64>(RESULT + R_COST, cost);
  store<i32>(RESULT + R_COST_START, numberNeedsText ? costStart : -1);
  store<i32>(RESULT + R_COST_END, numberNeedsText ? p : -1);
  return true;
}

// ---- The line ----

/**
 * skimPiLayout of the long line [start, end) when it is a message in pi's
 * layout read here: 1 with RESULT filled, 0 to decline.
 */
export function skimMessage(start: i32, end: i32): i32 {
  if (end - start < SKIM_MIN_BYTES || usageNeedle < 0) return 0;
  if (load<u8>(<usize>start) != OPEN_OBJECT || load<u8>(<usize>(end - 1)) != CLOSE_OBJECT) return 0;
  let p = start + 1;
  let seen = 0;
  let message = false;
  // Leading members, each once, in any order, up to the message.
  while (true) {
    if (byte(p, end) != QUOTE) return 0;
    const c = byte(p + 1, end);
    if (c == 0x74 /* t */ && byte(p + 2, end) == 0x79 /* y */ && isHeadType(p, end)) {
      // A long line's type is read only when it is "message".
      if ((seen & SEEN_TYPE) != 0 || !isMessageType(p + HeadTypeLength, end)) return 0;
      message = true;
      after = p + HeadTypeLength + MessageTypeLength;
      seen |= SEEN_TYPE;
    } else if (c == 0x69 /* i */ && isHeadId(p, end)) {
      if ((seen & SEEN_ID) != 0 || !idValueAt(p + HeadIdLength, end, false)) return 0;
      seen |= SEEN_ID;
    } else if (c == 0x70 /* p */ && isHeadParent(p, end)) {
      if ((seen & SEEN_PARENT) != 0 || !idValueAt(p + HeadParentLength, end, true)) return 0;
      seen |= SEEN_PARENT;
    } else if (c == 0x74 /* t */ && byte(p + 2, end) == 0x69 /* i */ && isHeadTimestamp(p, end)) {
      const s = p + HeadTimestampLength;
      if ((seen & SEEN_TIMESTAMP) != 0 || s + ISO_LENGTH >= end || load<u8>(<usize>(s + ISO_LENGTH)) != QUOTE) return 0;
      const millis = isoMillisAt(s);
      if (isNaN(millis)) return 0;
      store<i32>(RESULT + R_STAMP_START, s);
      store<f64>(RESULT + R_MILLIS, millis);
      seen |= SEEN_TIMESTAMP;
      after = s + ISO_LENGTH + 1;
    } else if (c == 0x6d /* m */ && message && isHeadMessage(p, end)) {
      p += HeadMessageLength;
      break;
    } else {
      // Any other member, or the end of a line with no message: skimPiLayout declines a long line then.
      return 0;
    }
    p = after;
    if (byte(p, end) != COMMA) return 0;
    p++;
  }
  return messageAt(start, end, p, seen);
}

/** A message from its role (at p) on: the members up to the content, then the tail and what follows the message. */
function messageAt(start: i32, end: i32, p: i32, seen: i32): i32 {
  let role = 0;
  const r = byte(p, end);
  if (r == 0x61 /* a */ && isRoleAssistant(p, end)) {
    role = ROLE_ASSISTANT;
    p += RoleAssistantLength;
  } else if (r == 0x74 /* t */ && isRoleToolResult(p, end)) {
    role = ROLE_TOOL_RESULT;
    p += RoleToolResultLength;
  } else if (r == 0x75 /* u */ && isRoleUser(p, end)) {
    role = ROLE_USER;
    p += RoleUserLength;
  } else {
    return 0;
  }
  store<i32>(RESULT + R_ROLE, role);
  // Members up to the content: pi's toolCallId and toolName with plain string values (anything else is declined).
  while (true) {
    const c = byte(p + 1, end);
    if (c == 0x63 /* c */ && isContentKey(p, end)) {
      p += ContentKeyLength;
      break;
    } else if (c == 0x74 /* t */ && byte(p + 5, end) == 0x43 /* C */ && isToolCallIdKey(p, end)) {
      p += ToolCallIdKeyLength;
    } else if (c == 0x74 /* t */ && byte(p + 5, end) == 0x4e /* N */ && isToolNameKey(p, end)) {
      p += ToolNameKeyLength;
    } else {
      return 0;
    }
    if (byte(p, end) != QUOTE) return 0;
    p = skipSimpleValue(p, end);
    if (p < 0 || byte(p, end) != COMMA) return 0;
    p++;
  }
  store<i32>(RESULT + R_HAS_SPEND, 0);
  // The tail, from where skimLine starts it (see skimPiLayout).
  const from = max(p, max(start, end - TAIL_WINDOW));
  const usageAtTail = role != ROLE_USER ? lastIndexOf(from, end, usageNeedle, UsageKeyLength) : -1;
  if (role == ROLE_ASSISTANT && usageAtTail < 0) return 0;
  if (role == ROLE_TOOL_RESULT && usageAtTail < 0 && from > p && lastIndexOf(p, min(end, from + UsageKeyLength - 1), usageNeedle, UsageKeyLength) >= 0) return 0;
  p = usageAtTail >= 0 ? usageAtTail : lastIndexOf(from, end, timestampNeedle, TimestampKeyLength);
  if (p < 0) return 0;
  let time: f64 = NaN;
  while (true) {
    const key = tailKeyAt(p, end);
    const vs = after;
    if (key == KEY_USAGE) {
      if (!piUsageAt(vs, end)) return 0;
    } else if (key == KEY_TIMESTAMP) {
      time = numberAt(vs, end);
      if (after < 0 || numberNeedsText) return 0;
    } else if (key == KEY_OTHER || key == KEY_ID || key == KEY_PARENT) {
      after = skipSimpleValue(vs, end);
      if (after < 0) return 0;
    } else {
      return 0;
    }
    p = after;
    const c = byte(p, end);
    if (c == COMMA) {
      p++;
      continue;
    }
    if (c != CLOSE_OBJECT) return 0;
    p++;
    break;
  }
  // No message timestamp in the tail: skimPiLayout declines a user's or assistant's line.
  if (isNaN(time) && role != ROLE_TOOL_RESULT) return 0;
  store<f64>(RESULT + R_TIME, isNaN(time) ? load<f64>(RESULT + R_MILLIS) : time);
  // After the message: the line's end, or id and parentId (pi's v1→v3 migration puts them there).
  if (p != end - 1) {
    if (byte(p, end) != COMMA) return 0;
    p++;
    while (true) {
      const key = tailKeyAt(p, end);
      if (key == KEY_ID) {
        if (!idValueAt(after, end, false)) return 0;
        seen |= SEEN_ID;
      } else if (key == KEY_PARENT) {
        if (!idValueAt(after, end, true)) return 0;
        seen |= SEEN_PARENT;
      } else {
        return 0;
      }
      p = after;
      if (byte(p, end) == COMMA) {
        p++;
        continue;
      }
      if (p != end - 1) return 0;
      break;
    }
  }
  return seen == SEEN_ALL ? 1 : 0;
}
