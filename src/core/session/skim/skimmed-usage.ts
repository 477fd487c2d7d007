// A message's `usage` read straight from its bytes into a SkimmedEntry: pi's
// own layout as a byte template, any other object of numbers member by
// member (what skipUsage + takeSpend give, usage-scanner.ts); anything else
// is declined.

import { cursor, finite, keyAt, KEY_CACHE_READ, KEY_CACHE_WRITE, KEY_COST, KEY_INPUT, KEY_OUTPUT, KEY_TOTAL, literal, matches, numberAt, skipNumber } from "./skim-bytes.js";
import type { SkimmedEntry } from "./skimmed-entry.js";
import type { SliceableBuffer } from "../scan/scanned-values.js";

const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

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
 * pi's usage as pi-ai writes it, byte for byte:
 * `{"input":N,"output":N,"cacheRead":N,"cacheWrite":N[,"totalTokens":N],"cost":{"input":N,"output":N,"cacheRead":N,"cacheWrite":N,"total":N}}`.
 * The cost parts are only validated (pi-ai's float sums have 17+ digits,
 * which only Number() reads exactly). Straight-line code, one literal at a
 * time: this runs once per assistant line of a big session.
 */
const U_INPUT = literal('{"input":');
const U_OUTPUT = literal(',"output":');
const U_CACHE_READ = literal(',"cacheRead":');
const U_CACHE_WRITE = literal(',"cacheWrite":');
const U_TOTAL_TOKENS = literal(',"totalTokens":');
const U_COST_INPUT = literal(',"cost":{"input":');
const U_TOTAL = literal(',"total":');

/** usageAt for pi's own layout of a usage (false when it is laid out otherwise: then usageAt reads it). */
export function piUsageAt(b: SliceableBuffer, p: number, end: number, m: SkimmedEntry): boolean {
  if (!matches(b, p, U_INPUT)) return false;
  const input = numberAt(b, p + U_INPUT.length, end);
  p = cursor.after;
  if (p < 0 || !matches(b, p, U_OUTPUT)) return false;
  const output = numberAt(b, p + U_OUTPUT.length, end);
  p = cursor.after;
  if (p < 0 || !matches(b, p, U_CACHE_READ)) return false;
  const cacheRead = numberAt(b, p + U_CACHE_READ.length, end);
  p = cursor.after;
  if (p < 0 || !matches(b, p, U_CACHE_WRITE)) return false;
  const cacheWrite = numberAt(b, p + U_CACHE_WRITE.length, end);
  p = cursor.after;
  if (p < 0) return false;
  if (b[p + 2] === 0x74 /* t */) {
    if (!matches(b, p, U_TOTAL_TOKENS)) return false;
    p = skipNumber(b, p + U_TOTAL_TOKENS.length, end);
    if (p < 0) return false;
  }
  if (!matches(b, p, U_COST_INPUT)) return false;
  p = skipNumber(b, p + U_COST_INPUT.length, end);
  if (p < 0 || !matches(b, p, U_OUTPUT)) return false;
  p = skipNumber(b, p + U_OUTPUT.length, end);
  if (p < 0 || !matches(b, p, U_CACHE_READ)) return false;
  p = skipNumber(b, p + U_CACHE_READ.length, end);
  if (p < 0 || !matches(b, p, U_CACHE_WRITE)) return false;
  p = skipNumber(b, p + U_CACHE_WRITE.length, end);
  if (p < 0 || !matches(b, p, U_TOTAL)) return false;
  const cost = numberAt(b, p + U_TOTAL.length, end);
  p = cursor.after;
  if (p < 0 || b[p] !== CLOSE_OBJECT || b[p + 1] !== CLOSE_OBJECT) return false;
  cursor.after = p + 2;
  m.hasSpend = true;
  m.input = finite(input);
  m.output = finite(output);
  m.cacheRead = finite(cacheRead);
  m.cacheWrite = finite(cacheWrite);
  m.cost = finite(cost);
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
