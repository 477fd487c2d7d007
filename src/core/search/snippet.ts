// A short line of a message's text around a match, with where the match is in it.

export interface Snippet {
  text: string;
  /** The match within `text` (UTF-16 offsets), when it could be placed. */
  highlight: [number, number] | null;
}

const BEFORE = 40;
const AFTER = 80;

/**
 * Lowercased and whitespace-collapsed `text`, with, for each output unit, the
 * offset in `text` it came from (to place a match found in pi's normalized form).
 */
function normalizedWithMap(text: string): { norm: string; map: number[] } {
  let norm = "";
  const map: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (/\s/.test(ch)) {
      if (!inSpace && norm.length > 0) {
        norm += " ";
        map.push(i);
      }
      inSpace = true;
    } else {
      const lower = ch.toLowerCase();
      for (let k = 0; k < lower.length; k++) map.push(i);
      norm += lower;
      inSpace = false;
    }
    i += ch.length;
  }
  map.push(text.length);
  return { norm, map };
}

/** Where a lowercased, normalized needle occurs in `text` (original offsets), from `fromOriginal` on. */
export function findNormalized(text: string, needle: string, fromOriginal = 0): [number, number] | null {
  const { norm, map } = normalizedWithMap(text);
  let from = 0;
  while (from < map.length && map[from]! < fromOriginal) from++;
  const at = norm.indexOf(needle, from);
  if (at < 0) return null;
  return [map[at]!, map[at + needle.length - 1]! + 1];
}

/** One line of `text` around [start, end): white space collapsed, ellipses where cut. */
export function snippetAround(text: string, match: [number, number] | null): Snippet {
  const [start, end] = match ?? [0, 0];
  const from = Math.max(0, start - BEFORE);
  const to = Math.min(text.length, Math.max(end, start) + AFTER);
  const clean = (s: string): string => s.replace(/\s+/g, " ");
  const before = (from > 0 ? "…" : "") + clean(text.slice(from, start)).trimStart();
  const hit = clean(text.slice(start, end));
  const after = clean(text.slice(end, to)).trimEnd() + (to < text.length ? "…" : "");
  return { text: before + hit + after, highlight: match ? [before.length, before.length + hit.length] : null };
}
