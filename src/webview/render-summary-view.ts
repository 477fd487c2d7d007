// View mode: the stored summary, rendered, with "Copy as markdown".
import { button, h } from "./dom";
import { renderMarkdownInto } from "./render-markdown";

export interface SummaryViewActions {
  copyMarkdown(text: string): void;
}

export function renderSummaryView(summary: string, actions: SummaryViewActions): HTMLElement {
  const copy = button("Copy as markdown", "secondary copy-markdown", () => actions.copyMarkdown(summary));
  copy.dataset.focusKey = "copy";
  const heading = h("h2", { text: "Summary", attrs: { id: "summary-heading" } });
  const body = h("div", { className: "markdown-body" });
  renderMarkdownInto(body, summary);
  return h(
    "section",
    { className: "summary summary-view", attrs: { "aria-labelledby": "summary-heading" } },
    h("div", { className: "section-heading" }, heading, copy),
    body,
  );
}
