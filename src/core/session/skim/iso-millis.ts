// pi's entry timestamps (toISOString's `YYYY-MM-DDTHH:mm:ss.sssZ`) as
// milliseconds, from a string or straight from a line's bytes, without
// Date.parse: the index keeps them as numbers (entry-columns.ts).

import { viewOver } from "./skim-bytes.js";

const ISO_LENGTH = 24;
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digits(s: string, from: number, count: number): number {
  let n = 0;
  for (let k = from; k < from + count; k++) {
    const d = s.charCodeAt(k) - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

function digitsAt(b: Uint8Array, from: number, count: number): number {
  let n = 0;
  for (let k = from; k < from + count; k++) {
    const d = b[k]! - 0x30;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** The ms of a date and time read from toISOString's form, NaN when a field is out of range (or -1: not digits). */
function millisOf(year: number, month: number, day: number, hour: number, minute: number, second: number, ms: number): number {
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return Number.NaN;
  const leap = month === 2 && (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0));
  if (day > DAYS_IN_MONTH[month - 1]! + (leap ? 1 : 0)) return Number.NaN;
  // Days since 1970-01-01 (Howard Hinnant's days_from_civil; Date.UTC was a tenth of indexing).
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const days = era * 146097 + yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy - 719468;
  return days * 86400000 + hour * 3600000 + minute * 60000 + second * 1000 + ms;
}

/**
 * The ms of an ISO timestamp in exactly the form toISOString writes
 * (`YYYY-MM-DDTHH:mm:ss.sssZ`, years 1000–9999, a real date), else NaN; then
 * `new Date(ms).toISOString()` gives the same string back.
 */
export function isoMillis(s: string): number {
  if (s.length !== ISO_LENGTH) return Number.NaN;
  if (s.charCodeAt(4) !== 0x2d || s.charCodeAt(7) !== 0x2d || s.charCodeAt(10) !== 0x54 || s.charCodeAt(13) !== 0x3a) return Number.NaN;
  if (s.charCodeAt(16) !== 0x3a || s.charCodeAt(19) !== 0x2e || s.charCodeAt(23) !== 0x5a) return Number.NaN;
  return millisOf(digits(s, 0, 4), digits(s, 5, 2), digits(s, 8, 2), digits(s, 11, 2), digits(s, 14, 2), digits(s, 17, 2), digits(s, 20, 3));
}

/**
 * The last date (`YYYY-MM-DD`) isoMillisAt read and found valid, as its
 * first eight bytes (two little-endian words) and last two, and its day's ms:
 * a session's entries share a few dates.
 */
let lastDateLow = 0;
let lastDateHigh = 0;
let lastDateEnd = -1;
let lastDayMillis = Number.NaN;

/** isoMillis of the 24 bytes at `p` (read as Latin-1: any byte ≥ 0x80 makes it NaN). */
export function isoMillisAt(b: Uint8Array, p: number): number {
  if (p < 0 || p + ISO_LENGTH > b.length) return Number.NaN;
  if (b[p + 4] !== 0x2d || b[p + 7] !== 0x2d || b[p + 10] !== 0x54 || b[p + 13] !== 0x3a) return Number.NaN;
  if (b[p + 16] !== 0x3a || b[p + 19] !== 0x2e || b[p + 23] !== 0x5a) return Number.NaN;
  const view = viewOver(b);
  const low = view.getInt32(p, true);
  const high = view.getInt32(p + 4, true);
  const end = view.getUint16(p + 8, true);
  if (low !== lastDateLow || high !== lastDateHigh || end !== lastDateEnd) {
    // The date alone (midnight): valid or not whatever the time is.
    const day = millisOf(digitsAt(b, p, 4), digitsAt(b, p + 5, 2), digitsAt(b, p + 8, 2), 0, 0, 0, 0);
    if (Number.isNaN(day)) return Number.NaN;
    lastDateLow = low;
    lastDateHigh = high;
    lastDateEnd = end;
    lastDayMillis = day;
  }
  const hour = digitsAt(b, p + 11, 2);
  const minute = digitsAt(b, p + 14, 2);
  const second = digitsAt(b, p + 17, 2);
  const ms = digitsAt(b, p + 20, 3);
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || ms < 0) return Number.NaN;
  return lastDayMillis + hour * 3600000 + minute * 60000 + second * 1000 + ms;
}
