// The one markdown-it configuration (summaries, the reader, the HTML export): no raw HTML, no
// linkification, only safe link targets, task lists, pi's file lists, and
// table alignment as classes (inline styles are blocked by the CSP).
import MarkdownIt from "markdown-it";
import type { MarkdownIt as MarkdownItInstance } from "markdown-it";
import type { StateCore } from "markdown-it";
import { piFileListsPlugin } from "./markdown-pi-file-lists";
import { taskListsPlugin } from "./markdown-task-lists";
import { isSafeHref } from "./safe-link";

const ALIGN_STYLE = /^text-align:(left|center|right)$/;

function alignmentAsClass(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== "th_open" && token.type !== "td_open") continue;
    const style = token.attrGet("style");
    if (style === null) continue;
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== "style");
    const align = ALIGN_STYLE.exec(String(style));
    if (align) token.attrJoin("class", `align-${align[1]}`);
  }
}

// The panel's own headings are h1 (kind) and h2 (Summary), so the summary's
// "## Goal" becomes h3: one outline for screen readers.
function nestHeadings(state: StateCore): void {
  for (const token of state.tokens) {
    if (token.type !== "heading_open" && token.type !== "heading_close") continue;
    const level = Number(token.tag.slice(1));
    token.tag = `h${Math.min(6, level + 1)}`;
  }
}

export function createMarkdownRenderer(): MarkdownItInstance {
  const md = new MarkdownIt("default", { html: false, linkify: false, typographer: false });
  md.validateLink = isSafeHref;
  md.use(taskListsPlugin);
  md.use(piFileListsPlugin);
  md.core.ruler.push("alignment_as_class", alignmentAsClass);
  md.core.ruler.push("nest_headings", nestHeadings);
  // A markdown image names a remote source (data: links are refused above), and
  // nothing remote may load (the CSP's img-src is data: and the extension only):
  // show it as a link to the (already validated) source.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const src = md.utils.escapeHtml(String(token.attrGet("src") ?? ""));
    return `<a class="md-image" href="${src}">image: ${md.utils.escapeHtml(alt)}</a>`;
  };
  return md;
}
