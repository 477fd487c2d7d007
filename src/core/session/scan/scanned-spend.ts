// The tokens and cost a `usage` value records (what session totals add up),
// from a parsed value (spendOf, the reference) or straight from the bytes of a
// usage the entry scanner has already validated (spendFromBytes: no JSON.parse
// and no intermediate object; every answer of a big session carries one).

import type { Spend } from "../format/entry-meta.js";
import { numberFromBytes, type SliceableBuffer } from "./scanned-values.js";

export const n = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Non-numbers and non-finite numbers count as 0; a usage that is not an object has none. */
export function spendOf(usage: unknown): Spend | undefined {
  if (typeof usage !== "object" || usage === null || Array.isArray(usage)) return undefined;
  const u = usage as Record<string, unknown>;
  const cost = u.cost;
  return {
    input: n(u.input),
    output: n(u.output),
    cacheRead: n(u.cacheRead),
    cacheWrite: n(u.cacheWrite),
    cost: typeof cost === "object" && cost !== null ? n((cost as Record<string, unknown>).total) : 0,
  };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipSpace(b: Uint8Array, p: number): number {
  while (isSpace(b[p]!)) p++;
  return p;
}

/** After the closing quote of the string at `p` (valid JSON assumed). */
function afterString(b: Uint8Array, p: number): number {
  p++;
  for (;;) {
    const c = b[p]!;
    if (c === QUOTE) return p + 1;
    p += c === BACKSLASH ? 2 : 1;
  }
}

/** After the valid JSON value at `p`. */
function afterValue(b: Uint8Array, p: number, end: number): number {
  const c = b[p]!;
  if (c === QUOTE) return afterString(b, p);
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    // A number or a literal: up to the next delimiter.
    while (p < end) {
      const d = b[p]!;
      if (d === COMMA || d === CLOSE_OBJECT || d === CLOSE_ARRAY || isSpace(d)) break;
      p++;
    }
    return p;
  }
  let depth = 0;
  while (p < end) {
    const d = b[p]!;
    if (d === QUOTE) {
      p = afterString(b, p);
      continue;
    }
    if (d === OPEN_OBJECT || d === OPEN_ARRAY) depth++;
    else if ((d === CLOSE_OBJECT || d === CLOSE_ARRAY) && --depth === 0) return p + 1;
    p++;
  }
  return p;
}

/** The number at [s, e) when it is one, else NaN (counted as 0 by the caller). */
export function numberAt(b: SliceableBuffer, s: number, e: number): number {
  const c = b[s]!;
  return c === MINUS || (c >= ZERO && c <= NINE) ? numberFromBytes(b, s, e) : Number.NaN;
}

/** Which member a key names: 0 input, 1 output, 2 cacheRead, 3 cacheWrite, 4 cost, 5 total, -1 other, -2 escaped. */
export function keyAt(b: Uint8Array, s: number, e: number): number {
  const len = e - s;
  for (let i = s; i < e; i++) if (b[i] === BACKSLASH) return -2;
  const c = b[s];
  if (len === 5 && c === 0x69 && b[s + 1] === 0x6e && b[s + 2] === 0x70 && b[s + 3] === 0x75 && b[s + 4] === 0x74) return 0; // input
  if (len === 6 && c === 0x6f && b[s + 1] === 0x75 && b[s + 2] === 0x74 && b[s + 3] === 0x70 && b[s + 4] === 0x75 && b[s + 5] === 0x74) return 1; // output
  if (len === 9 && c === 0x63 && b[s + 1] === 0x61 && b[s + 2] === 0x63 && b[s + 3] === 0x68 && b[s + 4] === 0x65) {
    const w = b[s + 5];
    if (w === 0x52 && b[s + 6] === 0x65 && b[s + 7] === 0x61 && b[s + 8] === 0x64) return 2; // cacheRead
    return -1;
  }
  if (len === 10 && c === 0x63 && b[s + 5] === 0x57 && b[s + 1] === 0x61 && b[s + 2] === 0x63 && b[s + 3] === 0x68 && b[s + 4] === 0x65 && b[s + 6] === 0x72 && b[s + 7] === 0x69 && b[s + 8] === 0x74 && b[s + 9] === 0x65) return 3; // cacheWrite
  if (len === 4 && c === 0x63 && b[s + 1] === 0x6f && b[s + 2] === 0x73 && b[s + 3] === 0x74) return 4; // cost
  if (len === 5 && c === 0x74 && b[s + 1] === 0x6f && b[s + 2] === 0x74 && b[s + 3] === 0x61 && b[s + 4] === 0x6c) return 5; // total
  return -1;
}

const ESCAPED = -1;

/**
 * `cost.total` of the object at `p` (valid JSON), or ESCAPED when a key has an
 * escape (the caller then parses). Later duplicate keys win, as in JSON.parse.
 */
function totalOf(b: SliceableBuffer, p: number, end: number): number {
  let total = 0;
  p = skipSpace(b, p + 1);
  if (b[p] === CLOSE_OBJECT) return 0;
  for (;;) {
    const ks = p + 1;
    p = afterString(b, p);
    const k = keyAt(b, ks, p - 1);
    if (k === -2) return ESCAPED;
    p = skipSpace(b, p);
    p = skipSpace(b, p + 1); // the colon
    const ve = afterValue(b, p, end);
    if (k === 5) total = n(numberAt(b, p, ve));
    p = skipSpace(b, ve);
    if (b[p] !== COMMA) return total;
    p = skipSpace(b, p + 1);
  }
}

/**
 * spendOf(JSON.parse(bytes [s, e))) for bytes the scanner validated as one JSON
 * value, without parsing it; a key with an escape falls back to JSON.parse.
 */
export function spendFromBytes(b: SliceableBuffer, s: number, e: number): Spend | undefined {
  if (b[s] !== OPEN_OBJECT) return undefined;
  const spend: Spend = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
  let p = skipSpace(b, s + 1);
  if (b[p] === CLOSE_OBJECT) return spend;
  for (;;) {
    const ks = p + 1;
    p = afterString(b, p);
    const k = keyAt(b, ks, p - 1);
    if (k === -2) return spendOf(JSON.parse(b.utf8Slice(s, e)));
    p = skipSpace(b, p);
    if (b[p] !== COLON) return spendOf(JSON.parse(b.utf8Slice(s, e)));
    p = skipSpace(b, p + 1);
    const ve = afterValue(b, p, e);
    if (k >= 0 && k <= 3) {
      const v = n(numberAt(b, p, ve));
      if (k === 0) spend.input = v;
      else if (k === 1) spend.output = v;
      else if (k === 2) spend.cacheRead = v;
      else spend.cacheWrite = v;
    } else if (k === 4) {
      const c = b[p];
      if (c === OPEN_OBJECT) {
        const total = totalOf(b, p, ve);
        if (total === ESCAPED) return spendOf(JSON.parse(b.utf8Slice(s, e)));
        spend.cost = total;
      } else {
        // An array has no `total`; null, strings, numbers and booleans are no cost object.
        spend.cost = 0;
      }
    }
    p = skipSpace(b, ve);
    if (b[p] !== COMMA) return spend;
    p = skipSpace(b, p + 1);
  }
}
