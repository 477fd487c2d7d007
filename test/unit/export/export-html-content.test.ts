// The HTML export's content: messages rendered as markdown (the reader's
// markdown-it configuration, sanitised without a DOM), images as data: URIs of
// checked raster types only, and the hostile-summary corpus inert in every
// kind of block (parsed by happy-dom, checked like the webviews).
import { fileURLToPath } from "node:url";
import { Window } from "happy-dom";
import { describe, expect, it } from "vitest";
import { exportSession } from "../../../src/core/export";
import { markdownHtml } from "../../../src/core/markdown/markdown-html";
import { sessionFromBytes } from "../../../src/core/session/open/open-session";
import { BIDI_CONTROLS } from "../../../src/core/text/bidi-controls";
import { loadHostileCases } from "../../support/hostile-summaries";
import { pngImagePart } from "../../support/png";
import { activeContent } from "../webview/support/inert-content";
import { assistant, compaction, header, jsonl, toolResult, user, type Line } from "../reader/support/session-text";

function exportHtml(lines: Line[], leafId: string): string {
  return exportSession(sessionFromBytes(new TextEncoder().encode(jsonl(lines))), { leafId, format: "html", redact: false }).text;
}

/** The page's <main>, parsed (nothing runs: no script evaluation, innerHTML). */
function parsedMain(html: string): Element {
  const window = new Window({ url: "https://export.invalid/" });
  const main = /<main>([\s\S]*)<\/main>/.exec(html)![1]!;
  window.document.body.innerHTML = `<main>${main}</main>`;
  return window.document.querySelector("main") as unknown as Element;
}

describe("markdown in the HTML export", () => {
  const text = "Fixed **the parser** in `src/parse.ts`:\n\n- one\n- [x] two\n\n```ts\nconst a = 1 < 2;\n```\n\n[docs](https://example.com/docs) and [bad](javascript:alert(1)) ![remote](https://example.com/x.png)\n\n| a | b |\n|:-|-:|\n| 1 | 2 |";
  const main = parsedMain(exportHtml([header(), user("u", null, text), assistant("a", "u", text)], "a"));

  it("renders messages as markdown", () => {
    for (const id of ["entry-u", "entry-a"]) {
      const block = main.querySelector(`[id="${id}"]`)!;
      expect(block.querySelector(".md strong")?.textContent).toBe("the parser");
      expect(block.querySelector(".md code")?.textContent).toBe("src/parse.ts");
      expect(Array.from(block.querySelectorAll(".md li")).map((li) => li.textContent?.trim())).toEqual(["one", "two"]);
      expect(block.querySelector(".md input")?.getAttribute("type")).toBe("checkbox");
      expect(block.querySelector(".md input")?.hasAttribute("disabled")).toBe(true);
      expect(block.querySelector(".md pre code")?.textContent).toBe("const a = 1 < 2;\n");
      expect(block.querySelector(".md td.align-right")?.textContent).toBe("2");
    }
  });

  it("links: web links kept, javascript: left as text, a remote image only a link (nothing loads)", () => {
    const hrefs = Array.from(main.querySelectorAll("a")).map((a) => a.getAttribute("href"));
    expect(hrefs).toEqual(["https://example.com/docs", "https://example.com/x.png", "https://example.com/docs", "https://example.com/x.png"]);
    expect(main.textContent).toContain("[bad](javascript:alert(1))");
    expect(main.querySelectorAll("img").length).toBe(0);
    expect(activeContent(main, 0)).toEqual([]);
  });

  it("the string sanitiser drops what markdown-it's own output would never hold", () => {
    // Not reachable through markdown (html is off); the allow-list still holds if it were.
    expect(markdownHtml("<b onclick=x>hi</b>")).toBe("<p>&lt;b onclick=x&gt;hi&lt;/b&gt;</p>\n");
    expect(markdownHtml("a \u202Eb")).toBe('<p>a <span class="bidi" title="bidi control character">⟨U+202E⟩</span>b</p>\n');
    expect(markdownHtml('[x](https://e.com/\u202E "t\u202E")')).toBe('<p><a href="https://e.com/%E2%80%AE" title="t⟨U+202E⟩">x</a></p>\n');
  });
});

describe("images in the HTML export", () => {
  const png = pngImagePart(6, 6);
  const withImages = (id: string, parent: string | null, parts: unknown[]) => {
    const line = user(id, parent, "see the screenshot") as { message: { content: unknown[] } };
    line.message.content.push(...parts);
    return line;
  };
  const result = toolResult("t", "u", "c", "read", "an image") as { message: { content: unknown[] } };
  result.message.content.push(png);
  const hostileImages = [
    { type: "image", mimeType: "image/svg+xml", data: Buffer.from('<svg onload="alert(1)"/>').toString("base64") },
    { type: "image", mimeType: "image/png", data: Buffer.from("<script>alert(1)</script>").toString("base64") },
    { type: "image", mimeType: 'image/png" onerror="alert(1)', data: png.data },
    { type: "image", mimeType: "image/png", url: "https://example.com/tracker.png" },
  ];
  const html = exportHtml([header(), withImages("u", null, [png, ...hostileImages]), result], "t");
  const main = parsedMain(html);

  it("shows PNG images as data: URIs, in the user message and in the tool result", () => {
    const sources = Array.from(main.querySelectorAll("img")).map((img) => img.getAttribute("src"));
    expect(sources).toEqual([`data:image/png;base64,${png.data}`, `data:image/png;base64,${png.data}`]);
    expect(main.querySelector('[id="entry-u"] .head')?.textContent).toContain("5 images (4 not shown:");
    expect(activeContent(main, 0, { dataImages: true })).toEqual([]);
    expect(html).not.toContain("tracker.png");
    expect(html).not.toMatch(/<[^>]*\sonerror=/i);
  });
});

const CORPUS = fileURLToPath(new URL("../../fixtures/hostile-summaries/", import.meta.url));
// Visible texts of manifest rows and header fields are not in the summary text.
const HOSTILE = loadHostileCases(CORPUS).map((c) => ({ name: c.name, text: c.summary, visibleText: c.files || c.state ? [] : c.visibleText }));

describe.each(HOSTILE)("hostile corpus in the HTML export: $name", ({ text, visibleText }) => {
  it("every kind of block stays inert and the text stays readable", () => {
    const lines = [
      header(),
      user("u", null, text),
      assistant("a", "u", text, [{ id: "c", name: "read", arguments: { path: text.slice(0, 200) } }]),
      toolResult("t", "a", "c", "read", text),
      compaction("k", "t", text, "u", 5),
    ];
    const main = parsedMain(exportHtml(lines, "k"));
    expect(activeContent(main, 0)).toEqual([]);
    const shown = main.textContent ?? "";
    for (const control of BIDI_CONTROLS) expect(shown.includes(control)).toBe(false);
    const userText = main.querySelector('[id="entry-u"] .md')?.textContent ?? "";
    for (const visible of visibleText) expect(userText.replace(/\s+/g, " ")).toContain(visible.replace(/\s+/g, " "));
  });
});

describe("the HTML export's styles", () => {
  it("paths (not links) are styled as code, never in a link-like blue", () => {
    const html = exportHtml([header(), user("u1", null, "Read it"), assistant("a1", "u1", "Reading.", [{ id: "c1", name: "read", arguments: { path: "src/a.ts" } }])], "a1");
    const css = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const rules = [...css.matchAll(/([^{}]+)\{([^{}]*)\}/g)].map((m) => ({ selector: m[1]!.trim(), body: m[2]! }));
    // --user is the blue of the user's messages, the colour of links: only borders may use it.
    expect(rules.filter((r) => /(^|;|\s)color:\s*var\(--user\)/.test(r.body)).map((r) => r.selector)).toEqual([]);
    expect(rules.find((r) => r.selector === ".path")!.body).toMatch(/monospace.*background: var\(--code\)/);
    expect(html).toMatch(/<span class="path">src\/a\.ts<\/span>/);
    expect(html).not.toMatch(/<a [^>]*>src\/a\.ts/);
  });
});
