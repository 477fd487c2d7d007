// Summary markdown → sanitised DOM nodes, bidi controls made visible.
import type { MarkdownIt } from "markdown-it";
import { createMarkdownRenderer } from "../core/markdown/markdown-renderer";
import { markBidiControls } from "./mark-bidi";
import { sanitizeHtml } from "./sanitize-html";

let renderer: MarkdownIt | undefined;

export function renderMarkdownInto(container: HTMLElement, markdown: string): void {
  renderer ??= createMarkdownRenderer();
  container.replaceChildren(sanitizeHtml(renderer.render(markdown)));
  markBidiControls(container);
}
