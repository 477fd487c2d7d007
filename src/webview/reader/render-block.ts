// One reader block → its element. Markdown goes through the summary panel's
// renderer and sanitiser; everything else is text (textContent). Bidi
// controls are made visible in every block.
import type { ReaderBlock, ToolCallView } from "../reader-protocol";
import { READER_BLOCK_TITLES } from "../../core/reader/reader-block";
import { imageDataUri, isReaderImage } from "../../core/reader/reader-image";
import { button, h } from "../dom";
import { formatAbsoluteTime } from "../format-time";
import { markBidiControls, showBidiControls } from "../mark-bidi";
import { renderMarkdownInto } from "../render-markdown";
import { highlightedBash } from "./highlight-bash";

export interface BlockActions {
  revealEntry(entryId: string): void;
  openFile(entryId: string, toolCallId: string, preview: boolean): void;
}


function markdown(text: string, className = "markdown-body"): HTMLElement {
  const body = h("div", { className });
  renderMarkdownInto(body, text);
  return body;
}

function pre(text: string, className = "plain"): HTMLElement {
  return h("pre", { className }, h("code", { text }));
}

function folded(summary: string, content: HTMLElement, className: string, open = false): HTMLDetailsElement {
  const details = h("details", { className }, h("summary", { text: summary }), content);
  details.open = open;
  return details;
}

function firstLine(text: string, width = 100): string {
  const line = text.split("\n").find((l) => l.trim()) ?? "";
  return line.length > width ? `${line.slice(0, width - 1)}…` : line;
}

/** The block's images, from data: URIs only (the CSP allows img-src data: and nothing remote); each checked again here. */
function images(block: ReaderBlock): HTMLElement[] {
  const shown = (block.images ?? []).filter(isReaderImage);
  if (shown.length === 0) return [];
  return [
    h(
      "div",
      { className: "images" },
      ...shown.map((image, i) => {
        const img = h("img", { className: "block-image", attrs: { alt: `image ${i + 1} of ${shown.length} (${image.mimeType})`, loading: "lazy", decoding: "async" } });
        img.src = imageDataUri(image);
        return img;
      }),
    ),
  ];
}

function toolCall(block: ReaderBlock, call: ToolCallView, actions: BlockActions): HTMLElement {
  const head = h("div", { className: "tool-call-head" }, h("span", { className: "tool-name", text: call.name }));
  if (call.path !== undefined) {
    const link = button(call.path, "tool-path", (event) => {
      event.stopPropagation();
      actions.openFile(block.id, call.id, !(event.ctrlKey || event.metaKey || event.altKey));
    });
    link.title = `Open ${showBidiControls(call.path)}`;
    head.append(link);
  }
  const element = h("div", { className: "tool-call", attrs: { "data-tool-call-id": call.id } }, head);
  if (call.command !== undefined) element.append(highlightedBash(call.command));
  element.append(folded("Arguments", pre(call.args, "json"), "tool-args"));
  return element;
}

function body(block: ReaderBlock, actions: BlockActions): HTMLElement[] {
  switch (block.kind) {
    case "user":
    case "custom":
      return [markdown(block.text), ...images(block)];
    case "assistant":
      return (block.parts ?? []).map((part) => {
        if (part.type === "text") return markdown(part.text);
        if (part.type === "thinking") return folded("Thinking", pre(part.text, "thinking-text"), "thinking");
        return toolCall(block, part.call, actions);
      });
    case "toolResult": {
      const status = block.isError ? "error" : "ok";
      const result = folded(`${block.title ?? "tool"} ${status}${block.text ? ` · ${firstLine(block.text)}` : ""}`, pre(block.text), "tool-result");
      result.append(...images(block));
      return [result];
    }
    case "bash":
      return [highlightedBash(block.title ?? ""), folded(`Output${block.detail ? ` (${block.detail})` : ""}`, pre(block.text), "tool-result")];
    case "system":
      return [folded("System prompt", pre(block.text), "system-prompt")];
    case "compaction": {
      // An omp snapcompact archive: its frames (PNG, data: URIs) under the lead-in summary.
      const frames = images(block);
      return [folded("Summary", markdown(block.text), "summary-fold"), ...frames.map((f) => folded(`Archived frames (${block.images?.length ?? 0})`, f, "snapcompact-frames"))];
    }
    case "branchSummary":
      return [folded("Summary", markdown(block.text), "summary-fold")];
    case "mark":
      return [];
    case "unknown":
      return [folded("Entry JSON", pre(block.text, "json"), "unknown-json")];
  }
}

function timeText(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : formatAbsoluteTime(date);
}

function headFacts(block: ReaderBlock): HTMLElement[] {
  const facts: HTMLElement[] = [];
  if (block.kind === "compaction" && block.tokens !== undefined) facts.push(h("span", { className: "tokens", text: `${block.tokens.toLocaleString("en-US")} tokens before` }));
  else if (block.tokens !== undefined) facts.push(h("span", { className: "tokens", text: `${block.tokens.toLocaleString("en-US")} tokens` }));
  if (block.title && (block.kind === "assistant" || block.kind === "custom")) facts.push(h("span", { className: "model", text: block.title }));
  if (block.detail && block.kind !== "bash") facts.push(h("span", { className: "detail", text: block.detail }));
  if (block.label !== undefined) facts.push(h("span", { className: "badge label-badge", text: `label: ${block.label}` }));
  if (block.edit) facts.push(h("span", { className: "badge edit-badge", text: block.edit.replacement === undefined ? "omitted from context" : "replaced in context" }));
  if (block.timestamp) facts.push(h("time", { className: "time", text: timeText(block.timestamp), attrs: { datetime: block.timestamp } }));
  return facts;
}

export function renderBlock(block: ReaderBlock, actions: BlockActions): HTMLElement {
  const classes = ["block", `block-${block.kind}`];
  if (block.isError) classes.push("is-error");
  if (block.edit) classes.push(block.edit.replacement === undefined ? "is-omitted" : "is-replaced");
  const element = h("article", { className: classes.join(" "), attrs: { "data-entry-id": block.id } });
  if (block.kind === "mark") {
    element.append(h("span", { className: "mark-text", text: block.text }), ...headFacts(block));
  } else {
    const reveal = button(READER_BLOCK_TITLES[block.kind], "block-kind", (event) => {
      event.stopPropagation();
      actions.revealEntry(block.id);
    });
    reveal.title = "Reveal this entry in the Entries view";
    element.append(h("header", { className: "block-head" }, reveal, ...headFacts(block)), ...body(block, actions));
  }
  if (block.edit?.replacement !== undefined) element.append(folded("What the model sees instead", pre(block.edit.replacement), "edit-replacement", true));
  if (block.truncatedFrom !== undefined) {
    element.append(h("p", { className: "truncated-note", text: `Cut here: ${block.truncatedFrom.toLocaleString("en-US")} characters in all (Open Raw Line shows the whole entry).` }));
  }
  markBidiControls(element);
  return element;
}
