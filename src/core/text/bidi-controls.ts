// Unicode bidi control characters (the "Trojan Source" set) reorder the text
// around them as it displays: a file name "\u202Egpj.exe" shows as "exe.jpg".
// Everywhere we show text from a session (trees, panels, the reader, exports)
// they are made visible as a ⟨U+202E⟩ token instead. Pure: used by the core,
// the extension and the webview bundle alike.

/** LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM, ALM. */
export const BIDI_CONTROLS: readonly string[] = [
  "\u202A", "\u202B", "\u202C", "\u202D", "\u202E",
  "\u2066", "\u2067", "\u2068", "\u2069",
  "\u200E", "\u200F",
  "\u061C",
];

const PATTERN = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

export function hasBidiControls(text: string): boolean {
  PATTERN.lastIndex = 0;
  const found = PATTERN.test(text);
  PATTERN.lastIndex = 0;
  return found;
}

/** The visible token for one control character: ⟨U+202E⟩. */
export function bidiToken(char: string): string {
  return `⟨U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}⟩`;
}

/** The text with every bidi control replaced by its visible token. */
export function showBidiControls(text: string): string {
  return text.replace(PATTERN, bidiToken);
}

export type BidiSegment = { text: string; control: false } | { text: string; control: true; char: string };

/** The text cut into plain runs and controls (for renderers that mark the tokens, e.g. a styled span). */
export function splitBidiControls(text: string): BidiSegment[] {
  const segments: BidiSegment[] = [];
  let last = 0;
  for (const match of text.matchAll(PATTERN)) {
    const at = match.index;
    if (at > last) segments.push({ text: text.slice(last, at), control: false });
    segments.push({ text: bidiToken(match[0]), control: true, char: match[0] });
    last = at + match[0].length;
  }
  if (last < text.length) segments.push({ text: text.slice(last), control: false });
  return segments;
}
