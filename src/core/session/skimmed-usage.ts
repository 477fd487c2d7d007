// A message's `usage` read straight from its bytes into a SkimmedEntry: pi's
// own layout as a byte template, any other object of numbers member by
// member (what skipUsage + takeSpend give, usage-scanner.ts); anything else
// is declined.

import { cursor, finite, keyAt, KEY_CACHE_READ, KEY_CACHE_WRITE, KEY_COST, KEY_INPUT, KEY_OUTPUT, KEY_TOTAL, matches, numberAt, skipNumber } from "./skim-bytes.js";
import type { SkimmedEntry } from "./pi-layout-skimmer.js";
import type { SliceableBuffer } from "./scanned-values.js";

const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const encoder = new TextEncoder();

/** The members of a `cost` object at `p` (`{`) when all values are numbers: cost.total (0 when absent); sets `cursor.after`; NaN when not read here. */
function costTotalAt(b: SliceableBuffer, p: number, end: number): number {
  let total = 0;
  p++;
  if (b[p] === CLOSE_OBJECT) {
    cursor.after = p + 1;
    return 0;
  }
  for (;;) {
    const key = keyAt(b, p, end);
    if (key < 0) return Number.NaN;
    const v = numberAt(b, cursor.after, end);
    if (cursor.after < 0) return Number.NaN;
    if (key === KEY_TOTAL) total = finite(v);
    p = cursor.after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    if (b[p] !== CLOSE_OBJECT) return Number.NaN;
    cursor.after = p + 1;
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
export function piUsageAt(b: SliceableBuffer, p: number, end: number, m: SkimmedEntry): boolean {
  const t = USAGE_TEMPLATE;
  let k = 0;
  for (let i = 0; i < t.length; i++) {
    const c = t[i]!;
    if (c === NUMBER_SLOT) {
      usageValues[k++] = numberAt(b, p, end);
      if (cursor.after < 0) return false;
      p = cursor.after;
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
  cursor.after = p;
  m.hasSpend = true;
  m.input = finite(usageValues[0]!);
  m.output = finite(usageValues[1]!);
  m.cacheRead = finite(usageValues[2]!);
  m.cacheWrite = finite(usageValues[3]!);
  m.cost = finite(usageValues[4]!);
  return true;
}

/** A `usage` object whose members are numbers (cost an object of numbers) into `m`, as skipUsage reads it; sets `cursor.after`. */
export function usageAt(b: SliceableBuffer, p: number, end: number, m: SkimmedEntry): boolean {
  if (b[p] !== OPEN_OBJECT) return false;
  m.hasSpend = true;
  m.input = m.output = m.cacheRead = m.cacheWrite = m.cost = 0;
  p++;
  if (b[p] === CLOSE_OBJECT) {
    cursor.after = p + 1;
    return true;
  }
  for (;;) {
    const key = keyAt(b, p, end);
    if (key < 0) return false;
    if (key === KEY_COST) {
      if (b[cursor.after] !== OPEN_OBJECT) return false;
      const total = costTotalAt(b, cursor.after, end);
      if (Number.isNaN(total)) return false;
      m.cost = total;
    } else {
      const v = finite(numberAt(b, cursor.after, end));
      if (cursor.after < 0) return false;
      if (key === KEY_INPUT) m.input = v;
      else if (key === KEY_OUTPUT) m.output = v;
      else if (key === KEY_CACHE_READ) m.cacheRead = v;
      else if (key === KEY_CACHE_WRITE) m.cacheWrite = v;
    }
    p = cursor.after;
    if (b[p] === COMMA) {
      p++;
      continue;
    }
    if (b[p] !== CLOSE_OBJECT) return false;
    cursor.after = p + 1;
    return true;
  }
}
