// Markdown → sanitised HTML as a string, without a DOM (the HTML export): the
// reader's markdown-it configuration (no raw HTML, only safe links), then every
// tag it produced checked against the same allow-list the webview's sanitiser
// keeps, and bidi controls made visible (⟨U+202E⟩ in a marked span; as plain
// tokens inside attribute values).
import type { MarkdownIt } from "markdown-it";
import { escapeHtml } from "../text/escape-html";
import { showBidiControls, splitBidiControls } from "../text/bidi-controls";
import { cleanClass, isAllowedAttribute, isAllowedElement } from "./allowed-markup";
import { createMarkdownRenderer } from "./markdown-renderer";

let renderer: MarkdownIt | undefined;

// markdown-it escapes <, >, & and " in text and attribute values, so every "<" it
// writes starts one of its own tags, and every attribute value is double-quoted.
const TAG = /<(\/?)([A-Za-z][A-Za-z0-9]*)([^<>]*)>/g;
const ATTRIBUTE = /\s+([^\s="'<>/]+)(?:="([^"]*)")?/g;

function decodeAttribute(value: string): string {
  return value.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!);
}

function markedText(escaped: string): string {
  return splitBidiControls(escaped)
    .map((segment) => (segment.control ? `<span class="bidi" title="bidi control character">${segment.text}</span>` : segment.text))
    .join("");
}

function cleanTag(whole: string, closing: string, name: string, rest: string): string {
  const tag = name.toLowerCase();
  if (!isAllowedElement(tag)) return escapeHtml(whole);
  if (closing) return `</${tag}>`;
  const kept: string[] = [];
  for (const match of rest.matchAll(ATTRIBUTE)) {
    const attribute = match[1]!.toLowerCase();
    const value = decodeAttribute(match[2] ?? "");
    if (!isAllowedAttribute(tag, attribute, value)) continue;
    const cleaned = attribute === "class" ? cleanClass(value) : showBidiControls(value);
    if (attribute === "class" && !cleaned) continue;
    kept.push(match[2] === undefined ? attribute : `${attribute}="${escapeHtml(cleaned)}"`);
  }
  // The only input is the task-list checkbox, and it is display only.
  if (tag === "input") {
    for (const forced of ['type="checkbox"', "disabled"]) if (!kept.includes(forced)) kept.push(forced);
  }
  return `<${tag}${kept.map((a) => ` ${a}`).join("")}>`;
}

/** `markdown` as HTML that can run, load and navigate to nothing unsafe. */
export function markdownHtml(markdown: string): string {
  renderer ??= createMarkdownRenderer();
  const html = renderer.render(markdown);
  let out = "";
  let last = 0;
  for (const match of html.matchAll(TAG)) {
    out += markedText(html.slice(last, match.index));
    out += cleanTag(match[0], match[1]!, match[2]!, match[3]!);
    last = match.index! + match[0].length;
  }
  return out + markedText(html.slice(last));
}
