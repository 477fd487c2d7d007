// pi 1.5's `/resume` query language, parsed exactly as pi 1.5.2 does
// (dist/modes/interactive/components/session-selector-search.js, parseSearchQuery):
//
//   - the query is trimmed; empty → no filter (every session);
//   - `re:<pattern>` (the trimmed query starts with `re:`) → one JavaScript
//     RegExp with flag "i"; the pattern is trimmed; empty or invalid → an error
//     (pi then shows no sessions);
//   - otherwise tokens: whitespace separates words, `"…"` makes a phrase. A quote
//     ends the word before it (`foo"bar"` is the word foo and the phrase bar).
//     An unclosed quote makes pi fall back to splitting on whitespace, quotes
//     kept as characters of the words (`"foo bar` → the words `"foo` and `bar`).
//   - every token must match (AND); different tokens may match different fields.

export type QueryToken = { kind: "fuzzy" | "phrase"; value: string };

export type ParsedQuery =
  | { mode: "tokens"; tokens: QueryToken[] }
  | { mode: "regex"; pattern: string; regex: RegExp | null; error?: string };

export function parseSearchQuery(query: string): ParsedQuery {
  const trimmed = query.trim();
  if (!trimmed) return { mode: "tokens", tokens: [] };
  if (trimmed.startsWith("re:")) {
    const pattern = trimmed.slice(3).trim();
    if (!pattern) return { mode: "regex", pattern, regex: null, error: "Empty regex" };
    try {
      return { mode: "regex", pattern, regex: new RegExp(pattern, "i") };
    } catch (err) {
      return { mode: "regex", pattern, regex: null, error: err instanceof Error ? err.message : String(err) };
    }
  }
  const tokens: QueryToken[] = [];
  let buf = "";
  let inQuote = false;
  const flush = (kind: QueryToken["kind"]): void => {
    const v = buf.trim();
    buf = "";
    if (v) tokens.push({ kind, value: v });
  };
  for (const ch of trimmed) {
    if (ch === '"') {
      if (inQuote) {
        flush("phrase");
        inQuote = false;
      } else {
        flush("fuzzy");
        inQuote = true;
      }
      continue;
    }
    if (!inQuote && /\s/.test(ch)) {
      flush("fuzzy");
      continue;
    }
    buf += ch;
  }
  if (inQuote) {
    return {
      mode: "tokens",
      tokens: trimmed
        .split(/\s+/)
        .filter((t) => t.length > 0)
        .map((t) => ({ kind: "fuzzy" as const, value: t })),
    };
  }
  flush("fuzzy");
  return { mode: "tokens", tokens };
}

/** pi's normalizeWhitespaceLower: lowercase, runs of white space → one space, trimmed. */
export function normalizeWhitespaceLower(text: string): string {
  return text.toLowerCase().replace(/\s+/g, " ").trim();
}

/** An empty query (pi lists every session, unfiltered). */
export function isEmptyQuery(parsed: ParsedQuery): boolean {
  return parsed.mode === "tokens" && parsed.tokens.length === 0;
}
