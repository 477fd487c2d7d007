// pi's edit tool, applied to text instead of a file (pi 0.73.1 and 1.5.2,
// core/tools/edit.js + edit-diff.js): every edit is matched against the
// ORIGINAL content (exactly, else after pi's fuzzy normalisation), must be
// unique and must not overlap; line endings and a BOM are kept as the file had
// them. Used to replay what a session did to a file.

export interface TextEdit {
  oldText: string;
  newText: string;
}

export class EditNotApplicable extends Error {}

function detectLineEnding(content: string): "\r\n" | "\n" {
  const crlf = content.indexOf("\r\n");
  const lf = content.indexOf("\n");
  if (lf === -1 || crlf === -1) return "\n";
  return crlf < lf ? "\r\n" : "\n";
}

const normalizeToLF = (text: string): string => text.replace(/\r\n/g, "\n").replace(/\r/g, "\n");

function normalizeForFuzzyMatch(text: string): string {
  return text
    .normalize("NFKC")
    .split("\n")
    .map((line) => line.trimEnd())
    .join("\n")
    .replace(/[\u2018\u2019\u201A\u201B]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F]/g, '"')
    .replace(/[\u2010\u2011\u2012\u2013\u2014\u2015\u2212]/g, "-")
    .replace(/[\u00A0\u2002-\u200A\u202F\u205F\u3000]/g, " ");
}

function countOccurrences(content: string, text: string): number {
  return normalizeForFuzzyMatch(content).split(normalizeForFuzzyMatch(text)).length - 1;
}

/** The edit tool's arguments in either of pi's shapes (`edits[]`, or legacy `oldText`/`newText`, or `edits` as a JSON string). */
export function editsOfArguments(args: Record<string, unknown>): TextEdit[] | undefined {
  let edits: unknown = args.edits;
  if (typeof edits === "string") {
    try {
      edits = JSON.parse(edits);
    } catch {
      edits = undefined;
    }
  }
  const list: TextEdit[] = [];
  if (Array.isArray(edits)) {
    for (const e of edits) {
      if (typeof e !== "object" || e === null) return undefined;
      const { oldText, newText } = e as Record<string, unknown>;
      if (typeof oldText !== "string" || typeof newText !== "string") return undefined;
      list.push({ oldText, newText });
    }
  }
  if (typeof args.oldText === "string" && typeof args.newText === "string") list.push({ oldText: args.oldText, newText: args.newText });
  return list.length > 0 ? list : undefined;
}

/** The file's content after pi's edit tool applied `edits` to `content`; throws EditNotApplicable where pi's tool would have failed. */
export function applyPiEdits(content: string, edits: readonly TextEdit[]): string {
  const bom = content.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = bom ? content.slice(1) : content;
  const ending = detectLineEnding(text);
  const normalized = normalizeToLF(text);
  const wanted = edits.map((e) => ({ oldText: normalizeToLF(e.oldText), newText: normalizeToLF(e.newText) }));
  if (wanted.some((e) => e.oldText.length === 0)) throw new EditNotApplicable("empty oldText");
  const fuzzy = wanted.some((e) => !normalized.includes(e.oldText));
  const base = fuzzy ? normalizeForFuzzyMatch(normalized) : normalized;
  const matches = wanted.map((e) => {
    let index = base.indexOf(e.oldText);
    let length = e.oldText.length;
    if (index === -1) {
      const fuzzyOld = normalizeForFuzzyMatch(e.oldText);
      index = normalizeForFuzzyMatch(base).indexOf(fuzzyOld);
      length = fuzzyOld.length;
    }
    if (index === -1) throw new EditNotApplicable("oldText not found");
    if (countOccurrences(base, e.oldText) > 1) throw new EditNotApplicable("oldText not unique");
    return { index, length, newText: e.newText };
  });
  matches.sort((a, b) => a.index - b.index);
  for (let i = 1; i < matches.length; i++) {
    if (matches[i - 1]!.index + matches[i - 1]!.length > matches[i]!.index) throw new EditNotApplicable("edits overlap");
  }
  let result = base;
  for (let i = matches.length - 1; i >= 0; i--) {
    const m = matches[i]!;
    result = result.slice(0, m.index) + m.newText + result.slice(m.index + m.length);
  }
  if (result === base) throw new EditNotApplicable("no change");
  return bom + (ending === "\r\n" ? result.replace(/\n/g, "\r\n") : result);
}

/**
 * The content before an edit, from the content after it: each newText must
 * occur exactly once (exact match only: a fuzzy edit cannot be undone).
 */
export function unapplyPiEdits(content: string, edits: readonly TextEdit[]): string {
  const bom = content.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = bom ? content.slice(1) : content;
  const ending = detectLineEnding(text);
  let result = normalizeToLF(text);
  const spots = edits.map((e) => {
    const newText = normalizeToLF(e.newText);
    const index = result.indexOf(newText);
    if (index === -1 || newText.length === 0 || result.indexOf(newText, index + 1) !== -1) {
      throw new EditNotApplicable("newText not found exactly once");
    }
    return { index, length: newText.length, oldText: normalizeToLF(e.oldText) };
  });
  spots.sort((a, b) => a.index - b.index);
  for (let i = 1; i < spots.length; i++) {
    if (spots[i - 1]!.index + spots[i - 1]!.length > spots[i]!.index) throw new EditNotApplicable("edits overlap");
  }
  for (let i = spots.length - 1; i >= 0; i--) {
    const s = spots[i]!;
    result = result.slice(0, s.index) + s.oldText + result.slice(s.index + s.length);
  }
  return bom + (ending === "\r\n" ? result.replace(/\n/g, "\r\n") : result);
}
