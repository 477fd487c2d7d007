// A message's `usage` read in the same pass that validates it: what
// spendOf(JSON.parse(value)) gives, without walking the bytes a second time
// (spendFromBytes after skipValue did; every answer of a big session has a
// usage, and the skimmer reads it on each). Equality with spendOf and with
// skipValue's verdict is property-tested (test/unit/session/scanned-spend.test.ts).

import { lastStringWasEscaped, skipString, skipValue, skipWhitespace } from "./json-skip.js";
import type { Spend } from "../format/entry-meta.js";
import { keyAt, n, numberAt } from "./scanned-spend.js";
import type { SliceableBuffer } from "./scanned-values.js";

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const KEY_COST = 4;
const KEY_TOTAL = 5;
const SPEND_KEYS = ["input", "output", "cacheRead", "cacheWrite", "cost", "total"];

/** What the last skipUsage read: the spend of an object, undefined for any other value. */
let scanned: Spend | undefined;
/** cost.total of the last skipCost. */
let costTotal = 0;

/** Member key at [ks, ke) (the quotes at ks-1 and ke) as keyAt numbers it. */
function memberKey(b: SliceableBuffer, ks: number, ke: number): number {
  if (!lastStringWasEscaped()) return keyAt(b, ks, ke);
  return SPEND_KEYS.indexOf(JSON.parse(b.utf8Slice(ks - 1, ke + 1)) as string);
}

/**
 * Walks the members of the object at `p` (`b[p]` is `{`) as skipValue validates
 * them; `onMember(key, valueStart)` returns the end of the value it took, or
 * -1. Returns the index after the object, or -1.
 */
function skipMembers(b: SliceableBuffer, p: number, end: number, onMember: (b: SliceableBuffer, key: number, vs: number, end: number) => number): number {
  p = skipWhitespace(b, p + 1, end);
  if (p < end && b[p] === CLOSE_OBJECT) return p + 1;
  for (;;) {
    if (p >= end || b[p] !== QUOTE) return -1;
    const ks = p + 1;
    p = skipString(b, p, end);
    if (p < 0) return -1;
    const key = memberKey(b, ks, p - 1);
    p = skipWhitespace(b, p, end);
    if (p >= end || b[p] !== COLON) return -1;
    p = onMember(b, key, skipWhitespace(b, p + 1, end), end);
    if (p < 0) return -1;
    p = skipWhitespace(b, p, end);
    if (p >= end) return -1;
    if (b[p] === COMMA) {
      p = skipWhitespace(b, p + 1, end);
      continue;
    }
    return b[p] === CLOSE_OBJECT ? p + 1 : -1;
  }
}

function costMember(b: SliceableBuffer, key: number, vs: number, end: number): number {
  const e = skipValue(b, vs, end);
  if (e >= 0 && key === KEY_TOTAL) costTotal = n(numberAt(b, vs, e));
  return e;
}

function usageMember(b: SliceableBuffer, key: number, vs: number, end: number): number {
  const spend = scanned!;
  if (key === KEY_COST) {
    if (vs < end && b[vs] === OPEN_OBJECT) {
      costTotal = 0;
      const e = skipMembers(b, vs, end, costMember);
      spend.cost = costTotal;
      return e;
    }
    // An array has no `total`; null, strings, numbers and booleans are no cost object.
    spend.cost = 0;
    return skipValue(b, vs, end);
  }
  const e = skipValue(b, vs, end);
  if (e < 0 || key < 0 || key > 3) return e;
  const v = n(numberAt(b, vs, e));
  if (key === 0) spend.input = v;
  else if (key === 1) spend.output = v;
  else if (key === 2) spend.cacheRead = v;
  else spend.cacheWrite = v;
  return e;
}

/**
 * skipValue for the value at `p` (after white space), also reading the spend
 * of an object (takeSpend gives it). Returns the index after the value, or -1
 * (then the caller reads the line again with the exact scanner).
 */
export function skipUsage(b: SliceableBuffer, p: number, end: number): number {
  if (p >= end || b[p] !== OPEN_OBJECT) {
    scanned = undefined;
    return skipValue(b, p, end);
  }
  scanned = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  return skipMembers(b, p, end, usageMember);
}

/** The spend the last skipUsage read (undefined when the value was not an object). */
export function takeSpend(): Spend | undefined {
  return scanned;
}
