// Which JSON string escapes JSON.stringify writes ("canonical"): `\"`, `\\`,
// `\b\f\n\r\t`, `\u00XX` (lower-case hex) for the other control characters,
// and `\udXXX` for a lone surrogate. A line whose escapes are all canonical
// (and whose bytes are valid UTF-8) holds every string as JSON.stringify
// writes it, so its text can be copied out instead of parsed and written again
// (compaction/json-bytes.ts checks a line with a native search per escape;
// the exact scan, entry-scanner.ts, notes it for free as it validates).

const BACKSLASH = 0x5c;
const U = 0x75;

/** The value of 4 lower-case hex digits at p (JSON.stringify writes lower case), or -1. */
export function lowerHexValue(bytes: Uint8Array, p: number): number {
  let v = 0;
  for (let i = p; i < p + 4; i++) {
    const b = bytes[i]!;
    const d = b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/** Escapes JSON.stringify writes as `\b`, `\t`, `\n`, `\f`, `\r` (never as `\u00XX`). */
function isShortEscaped(v: number): boolean {
  return v === 0x08 || v === 0x09 || v === 0x0a || v === 0x0c || v === 0x0d;
}

/**
 * Whether the `\uXXXX` escape at `b` (bytes[b] is the backslash) is canonical;
 * bytes from `end` on are not looked at (a pair needs its low half before it).
 */
export function unicodeEscapeIsCanonical(bytes: Uint8Array, b: number, end: number): boolean {
  const v = b + 6 <= end ? lowerHexValue(bytes, b + 2) : -1;
  if (v < 0) return false;
  if (v < 0x20) return !isShortEscaped(v);
  if (v >= 0xd800 && v <= 0xdbff) {
    // A high surrogate escaped is lone only if no escaped low surrogate follows (a pair is written as itself).
    if (b + 12 <= end && bytes[b + 6] === BACKSLASH && bytes[b + 7] === U) {
      const next = lowerHexValue(bytes, b + 8);
      if (next >= 0xdc00 && next <= 0xdfff) return false;
    }
    return true;
  }
  return v >= 0xdc00 && v <= 0xdfff;
}
