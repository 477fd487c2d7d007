// The byte-level pieces skimPiLayout (pi-layout-skimmer.ts) reads a line
// with: printable-ASCII strings (hashed as the id table hashes ids), keys it
// knows, JSON numbers with their value (as numberFromBytes reads them) or
// only validated. Each accepts a subset of what the entry scanner accepts and
// says so by failing; `cursor.after` is where the last one ended.

import type { SliceableBuffer } from "../scan/scanned-values.js";

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const encoder = new TextEncoder();

export const KEY_OTHER = 0;
export const KEY_ROLE = 1;
export const KEY_TIMESTAMP = 2;
export const KEY_CONTENT = 3;
export const KEY_USAGE = 4;
export const KEY_ID = 5;
export const KEY_PARENT = 6;
export const KEY_INPUT = 7;
export const KEY_OUTPUT = 8;
export const KEY_CACHE_READ = 9;
export const KEY_CACHE_WRITE = 10;
export const KEY_COST = 11;
export const KEY_TOTAL = 12;
export const KEY_MESSAGE = 13;
const KEY_WORDS: [string, number][] = [
  ["role", KEY_ROLE], ["timestamp", KEY_TIMESTAMP], ["content", KEY_CONTENT], ["usage", KEY_USAGE], ["id", KEY_ID],
  ["parentId", KEY_PARENT], ["input", KEY_INPUT], ["output", KEY_OUTPUT], ["cacheRead", KEY_CACHE_READ],
  ["cacheWrite", KEY_CACHE_WRITE], ["cost", KEY_COST], ["total", KEY_TOTAL], ["message", KEY_MESSAGE],
  // Captured top-level keys: never accepted after the message here.
  ["type", KEY_MESSAGE], ["targetId", KEY_MESSAGE], ["label", KEY_MESSAGE], ["name", KEY_MESSAGE], ["version", KEY_MESSAGE], ["cwd", KEY_MESSAGE],
];
const KEYS_BY_LENGTH: { bytes: Literal; key: number }[][] = [];
for (const [word, key] of KEY_WORDS) (KEYS_BY_LENGTH[word.length] ??= []).push({ bytes: literal(word), key });

/** 10^k, exact for k ≤ 22. */
const POW10: number[] = [];
for (let k = 0, v = 1; k <= 22; k++, v *= 10) POW10.push(v);

/** Scanner state (synchronous, not re-entrant): where the last key or value read ends, the last ASCII string's hash. */
export const cursor = { after: 0, hash: 0 };

/** A byte string the skim compares lines with, also as little-endian 32-bit words (matches compares four bytes at a time). */
export interface Literal {
  readonly bytes: Uint8Array;
  readonly length: number;
  /** Its whole 4-byte groups, each read little-endian. */
  readonly words: Int32Array;
}

export function literal(text: string): Literal {
  const bytes = encoder.encode(text);
  const words = new Int32Array(bytes.length >> 2);
  for (let i = 0; i < words.length; i++) words[i] = bytes[4 * i]! | (bytes[4 * i + 1]! << 8) | (bytes[4 * i + 2]! << 16) | (bytes[4 * i + 3]! << 24);
  return { bytes, length: bytes.length, words };
}

/** The buffer `view` reads (the last one matches was given: the chunk or line being skimmed; at most KEEP_VIEW_BYTES). */
let viewed: Uint8Array | null = null;
let view: DataView = new DataView(new ArrayBuffer(0));

/** Lets go of the last line buffer matches read (a reader calls it when it is done). */
export function forgetLineBuffer(): void {
  viewed = null;
  view = new DataView(new ArrayBuffer(0));
}

/** Buffers larger than this (one very long line) get a view each time: never kept past the read. */
const KEEP_VIEW_BYTES = 4 * 1024 * 1024;

/** A DataView of `b` (the same one while `b` is the buffer being skimmed). */
export function viewOver(b: Uint8Array): DataView {
  if (b !== viewed) {
    if (b.byteLength > KEEP_VIEW_BYTES) return new DataView(b.buffer, b.byteOffset, b.byteLength);
    view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    viewed = b;
  }
  return view;
}

/** Whether bytes [p, p + word.length) of `b` are `word`. */
export function matches(b: Uint8Array, p: number, word: Literal): boolean {
  const n = word.length;
  if (p < 0 || p + n > b.length) return false;
  const view = viewOver(b);
  const words = word.words;
  let k = 0;
  for (let i = 0; i < words.length; i++, k += 4) if (view.getInt32(p + k, true) !== words[i]) return false;
  const bytes = word.bytes;
  for (; k < n; k++) if (b[p + k] !== bytes[k]) return false;
  return true;
}

/** A string of printable ASCII without `"` or `\` at `p` (its quote): sets `cursor.after` and its FNV-1a `hash`; false otherwise. */
export function asciiString(b: Uint8Array, p: number, end: number): boolean {
  if (b[p] !== QUOTE) return false;
  let h = 0x811c9dc5 | 0;
  for (let q = p + 1; q < end; q++) {
    const c = b[q]!;
    if (c === QUOTE) {
      cursor.after = q + 1;
      cursor.hash = h;
      return true;
    }
    if (c < 0x20 || c >= 0x80 || c === BACKSLASH) return false;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return false;
}

/** The key at `p` (its quote) followed by `:`: its KEY_ number, or -1 for one this does not read (escaped, not ASCII). Sets `cursor.after` past the colon. */
export function keyAt(b: Uint8Array, p: number, end: number): number {
  if (b[p] !== QUOTE) return -1;
  const s = p + 1;
  let e = s;
  for (;;) {
    if (e >= end) return -1;
    const c = b[e]!;
    if (c === QUOTE) break;
    if (c < 0x20 || c >= 0x80 || c === BACKSLASH) return -1;
    e++;
  }
  if (b[e + 1] !== COLON) return -1;
  cursor.after = e + 2;
  const candidates = KEYS_BY_LENGTH[e - s];
  if (candidates !== undefined) {
    for (let i = 0; i < candidates.length; i++) if (matches(b, s, candidates[i]!.bytes)) return candidates[i]!.key;
  }
  return KEY_OTHER;
}

const K_TIMESTAMP = literal('"timestamp":');
const K_USAGE = literal('"usage":');
const K_STOP_REASON = literal('"stopReason":');
const K_IS_ERROR = literal('"isError":');
const K_ID = literal('"id":');
const K_PARENT = literal('"parentId":');

/** keyAt for the keys pi writes after a message's content and after the message, matched whole (then the others by keyAt). */
export function tailKeyAt(b: Uint8Array, p: number, end: number): number {
  const c = b[p + 1];
  let word: Literal | undefined;
  let key = KEY_OTHER;
  if (c === 0x74 /* t */) {
    word = K_TIMESTAMP;
    key = KEY_TIMESTAMP;
  } else if (c === 0x75 /* u */) {
    word = K_USAGE;
    key = KEY_USAGE;
  } else if (c === 0x73 /* s */) {
    word = K_STOP_REASON;
  } else if (c === 0x69 /* i */) {
    word = b[p + 2] === 0x64 /* d */ ? K_ID : K_IS_ERROR;
    key = word === K_ID ? KEY_ID : KEY_OTHER;
  } else if (c === 0x70 /* p */) {
    word = K_PARENT;
    key = KEY_PARENT;
  }
  if (word !== undefined && p + word.length <= end && matches(b, p, word)) {
    cursor.after = p + word.length;
    return key;
  }
  return keyAt(b, p, end);
}

/** The JSON number at `p` (sets `cursor.after`), as numberFromBytes reads it; NaN with `cursor.after` = -1 when it is none. */
export function numberAt(b: SliceableBuffer, p: number, end: number): number {
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
    cursor.after = -1;
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
      cursor.after = -1;
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
      cursor.after = -1;
      return Number.NaN;
    }
    cursor.after = p;
    return Number(b.latin1Slice(s, p));
  }
  cursor.after = p;
  // ≤ 15 digits: the integer is exact and so is one division by an exact power of ten (correctly rounded, as Number()).
  if (digits > 15) return Number(b.latin1Slice(s, p));
  const value = fraction === 0 ? mantissa : mantissa / POW10[fraction]!;
  return negative ? -value : value;
}

/** After the JSON number at `p`, or -1 when there is none (the grammar numberAt reads, without the value). */
export function skipNumber(b: Uint8Array, p: number, end: number): number {
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

/**
 * The string of ASCII bytes [s, e) of `b` (what latin1Slice gives): pi's
 * 8-character ids are made in JS (a native latin1Slice call per entry was a
 * tenth of indexing a big session), others by latin1Slice.
 */
export function asciiText(b: SliceableBuffer, s: number, e: number): string {
  return e - s === 8 ? String.fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!) : b.latin1Slice(s, e);
}

/**
 * Where each two-byte pair of `needle` starts in it (-1: not in it), by the
 * pair's 16-bit value. The needles here have distinct pairs and no border
 * (no proper prefix that is also a suffix), which lastIndexIn relies on.
 */
export function pairStarts(needle: Uint8Array): Int8Array {
  const starts = new Int8Array(65536).fill(-1);
  for (let k = 0; k + 1 < needle.length; k++) {
    const pair = (needle[k]! << 8) | needle[k + 1]!;
    if (starts[pair] !== -1) throw new Error("pairStarts: a needle with a repeated pair");
    starts[pair] = k;
  }
  for (let k = 1; k < needle.length; k++) if (needle.subarray(needle.length - k).every((c, i) => c === needle[i])) throw new Error("pairStarts: a needle with a border");
  return starts;
}
/**
 * Last start of `needle` within [from, to): what a native lastIndexOf on that
 * window finds (skimLine's search for a message's tail). Every occurrence holds exactly one pair
 * start of the positions to - 2, to - 2 - (n - 1), … (n: the needle's length),
 * so only those pairs are looked at, with no load depending on the one before;
 * without a border two occurrences cannot share that position, so the first
 * one found (from the end) is the last.
 */
export function lastIndexIn(b: Uint8Array, needle: Literal, pairs: Int8Array, from: number, to: number): number {
  const stride = needle.length - 1;
  const last = to - needle.length;
  for (let p = to - 2; p >= from; p -= stride) {
    const k = pairs[(b[p]! << 8) | b[p + 1]!]!;
    if (k < 0) continue;
    const q = p - k;
    if (q >= from && q <= last && matches(b, q, needle)) return q;
  }
  return -1;
}

export const finite = (v: number): number => (Number.isFinite(v) ? v : 0);
