// pi 1.5.2's query parsing, quirks included, checked against pi's own parser.
import { describe, expect, it } from "vitest";
import { parseSearchQuery } from "../../../src/core/search/query";
import { parseSearchQuery as piParse } from "../../support/pi15-session-search";

function tokens(q: string): unknown {
  const p = parseSearchQuery(q);
  return p.mode === "tokens" ? p.tokens : p;
}

describe("parseSearchQuery (pi 1.5.2's /resume syntax)", () => {
  it("words are whitespace-separated; quotes make phrases", () => {
    expect(tokens('foo "node cve" bar')).toEqual([
      { kind: "fuzzy", value: "foo" },
      { kind: "phrase", value: "node cve" },
      { kind: "fuzzy", value: "bar" },
    ]);
  });

  it("a quote ends the word before it", () => {
    expect(tokens('foo"bar baz"qux')).toEqual([
      { kind: "fuzzy", value: "foo" },
      { kind: "phrase", value: "bar baz" },
      { kind: "fuzzy", value: "qux" },
    ]);
  });

  it("an unclosed quote falls back to plain words, quotes kept", () => {
    expect(tokens('"foo bar')).toEqual([
      { kind: "fuzzy", value: '"foo' },
      { kind: "fuzzy", value: "bar" },
    ]);
    expect(tokens('a "b" "c')).toEqual([
      { kind: "fuzzy", value: "a" },
      { kind: "fuzzy", value: '"b"' },
      { kind: "fuzzy", value: '"c' },
    ]);
  });

  it("empty phrases and blank queries give no tokens", () => {
    expect(tokens('""')).toEqual([]);
    expect(tokens('"   "')).toEqual([]);
    expect(tokens("   ")).toEqual([]);
  });

  it("re: takes the rest as one case-insensitive regex (trimmed); empty or invalid is an error", () => {
    const p = parseSearchQuery("  re:  foo\\s+bar ");
    expect(p).toMatchObject({ mode: "regex", pattern: "foo\\s+bar" });
    expect(p.mode === "regex" && p.regex?.flags).toBe("i");
    expect(parseSearchQuery("re:")).toMatchObject({ mode: "regex", regex: null, error: "Empty regex" });
    expect(parseSearchQuery("re:(")).toMatchObject({ mode: "regex", regex: null });
    expect((parseSearchQuery("re:(") as { error?: string }).error).toMatch(/Invalid regular expression/);
    // Only a leading `re:` counts, and it is case-sensitive.
    expect(tokens("x re:foo")).toEqual([
      { kind: "fuzzy", value: "x" },
      { kind: "fuzzy", value: "re:foo" },
    ]);
    expect(tokens("RE:foo")).toEqual([{ kind: "fuzzy", value: "RE:foo" }]);
  });

  it("agrees with pi's parser on tricky inputs", () => {
    const inputs = ['a"b', '"a" "b"', '  "x  y"  z ', 'q"', '"', "tab\tsep\nline", 're:a"b', '"a""b"', "naïve ΣΟΦΟΣ", '""a', 'x "" y'];
    for (const q of inputs) {
      const ours = parseSearchQuery(q);
      const pi = piParse(q);
      if (ours.mode === "tokens") expect(pi, q).toMatchObject({ mode: "tokens", tokens: ours.tokens });
      else expect(pi.mode, q).toBe("regex");
    }
  });
});
