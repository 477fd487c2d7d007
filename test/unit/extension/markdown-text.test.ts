// Text put into a hover's markdown reads back as the same words: no markdown
// syntax takes effect, and spaces stay spaces (so the hover wraps between
// words, never mid-word as with MarkdownString.appendText's &nbsp;).
import fc from "fast-check";
import MarkdownIt from "markdown-it";
import { describe, expect, it } from "vitest";
import { markdownText } from "../../../src/extension/markdown-text.js";

const md = new MarkdownIt({ html: false, linkify: false });
const plain = (html: string) => html.replace(/<br>\n?/g, "\n").replace(/<\/?p>\n?/g, "").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, '"').replace(/&amp;/g, "&").trimEnd();

describe("markdownText", () => {
  it("keeps spaces breakable: no &nbsp;", () => {
    const text = markdownText("Rename greeting to salutation in hello.ts and run the tests");
    expect(text).not.toContain("&nbsp;");
    expect(md.render(text)).toContain("Rename greeting to salutation in hello.ts and run the tests");
  });

  it("renders back to the same text, whatever markdown it holds", () => {
    const words = fc.constantFrom("a", "**b**", "_c_", "`d`", "[e](http://x)", "# f", "- g", "1. h", "<b>i</b>", "j\\", "> k", "|l|", "~~m~~", "&amp;", "n=o", "==", "---", "http://p.q", ":smile:");
    fc.assert(
      fc.property(fc.array(fc.array(words, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 3 }), (lines) => {
        const text = lines.map((l) => l.join(" ")).join("\n");
        expect(plain(md.render(markdownText(text)))).toBe(text);
      }),
    );
  });
});
