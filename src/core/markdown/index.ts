// Markdown rendered to safe HTML.

export { cleanClass, isAllowedAttribute, isAllowedElement } from "./allowed-markup.js";
export { markdownHtml } from "./markdown-html.js";
export { createMarkdownRenderer } from "./markdown-renderer.js";
