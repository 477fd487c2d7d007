// A branch as one self-contained, offline HTML page: inline CSS (allowed by
// its hash in the page's CSP), no script, no font, nothing fetched; images
// only as data: URIs of checked raster types (the CSP allows img-src data:).
// Messages are markdown, rendered and sanitised as in the reader
// (core/markdown); every other text is escaped; bidi controls are shown as
// marked ⟨U+202E⟩ tokens.
import { createHash } from "node:crypto";
import { markdownHtml } from "../markdown/markdown-html";
import { READER_BLOCK_TITLES, type ReaderBlock, type ToolCallView } from "../reader/reader-block";
import { imageDataUri, isReaderImage } from "../reader/reader-image";
import { splitBidiControls } from "../text/bidi-controls";
import { escapeHtml } from "../text/escape-html";
import type { BranchExport } from "./branch-export";
import { counted } from "../text/counted.js";

const CSS = `
:root { color-scheme: light dark; --fg: #1f2328; --bg: #ffffff; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --user: #0969da; --asst: #1a7f37; --tool: #8250df; --sum: #bc4c00; --warn: #9a6700; --err: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --line: #3d444d; --code: #151b23; --user: #4493f8; --asst: #3fb950; --tool: #ab7df8; --sum: #db6d28; --warn: #d29922; --err: #f85149; } }
body { margin: 0 auto; max-width: 60rem; padding: 1rem 1.25rem 3rem; color: var(--fg); background: var(--bg); font: 15px/1.5 system-ui, sans-serif; }
h1 { font-size: 1.4em; margin: 0.5rem 0; }
.facts { color: var(--muted); font-size: 0.9em; margin: 0 0 1rem; padding-left: 1.2rem; }
.block { border: 1px solid var(--line); border-left: 3px solid var(--line); border-radius: 4px; padding: 0.4rem 0.75rem; margin: 0.6rem 0; }
.block-user { border-left-color: var(--user); }
.block-assistant { border-left-color: var(--asst); }
.block-toolResult, .block-bash { border-left-color: var(--tool); }
.block-compaction, .block-branchSummary { border-left-color: var(--sum); border-style: dashed; border-left-style: solid; }
.block.is-error { border-left-color: var(--err); }
.block.is-omitted .text { opacity: 0.55; }
.mark { color: var(--muted); font-size: 0.85em; margin: 0.3rem 0.75rem; }
.head { display: flex; flex-wrap: wrap; gap: 0.6rem; font-size: 0.85em; color: var(--muted); }
.head .kind { font-weight: 600; color: var(--fg); }
.head time { margin-left: auto; }
.badge { border: 1px solid var(--line); border-radius: 8px; padding: 0 0.4em; }
.edit { color: var(--warn); border-color: var(--warn); }
.text { white-space: pre-wrap; overflow-wrap: anywhere; }
.md { overflow-wrap: anywhere; }
.md > :first-child { margin-top: 0.2rem; }
.md > :last-child { margin-bottom: 0.2rem; }
.md code { background: var(--code); border-radius: 3px; padding: 0 0.2em; font: 0.9em ui-monospace, monospace; }
.md pre code { background: none; padding: 0; }
.md blockquote { margin: 0.4rem 0; padding-left: 0.8rem; border-left: 3px solid var(--line); color: var(--muted); }
.md table { border-collapse: collapse; }
.md th, .md td { border: 1px solid var(--line); padding: 0.2rem 0.5rem; }
.md .align-center { text-align: center; }
.md .align-right { text-align: right; }
.md h2, .md h3, .md h4, .md h5, .md h6 { font-size: 1em; margin: 0.6rem 0 0.3rem; }
.md .task-list-item { list-style: none; }
.images { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 0.4rem 0; }
.images img { max-width: min(100%, 40rem); max-height: 30rem; border: 1px solid var(--line); border-radius: 3px; }
pre { margin: 0.3rem 0; padding: 0.4rem 0.6rem; background: var(--code); border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; font: 13px/1.45 ui-monospace, monospace; }
.tool-call { margin: 0.4rem 0; }
.tool-name { font-weight: 600; font-family: ui-monospace, monospace; }
.path { font: 0.9em ui-monospace, monospace; color: var(--fg); background: var(--code); border-radius: 3px; padding: 0 0.25em; }
summary { cursor: pointer; color: var(--muted); overflow-wrap: anywhere; }
.bidi { color: var(--warn); border: 1px solid var(--warn); border-radius: 3px; padding: 0 0.15em; font: 0.85em ui-monospace, monospace; }
`;


/** Escaped text with bidi controls as marked tokens. */
export function htmlText(text: string): string {
  return splitBidiControls(text)
    .map((segment) => (segment.control ? `<span class="bidi" title="bidi control character">${escapeHtml(segment.text)}</span>` : escapeHtml(segment.text)))
    .join("");
}

const el = (tag: string, cls: string, inner: string): string => `<${tag} class="${cls}">${inner}</${tag}>`;
const pre = (text: string, cls = "plain"): string => `<pre class="${cls}"><code>${htmlText(text)}</code></pre>`;
const details = (summary: string, inner: string, open = false): string =>
  `<details${open ? " open" : ""}><summary>${htmlText(summary)}</summary>${inner}</details>`;
const markdown = (text: string): string => el("div", "md", markdownHtml(text));

function images(block: ReaderBlock): string {
  const shown = (block.images ?? []).filter(isReaderImage);
  if (shown.length === 0) return "";
  const tags = shown.map((image, i) => `<img src="${escapeHtml(imageDataUri(image))}" alt="image ${i + 1} of ${shown.length} (${image.mimeType})">`);
  return el("div", "images", tags.join(""));
}

function toolCall(call: ToolCallView): string {
  const head = `<div>${el("span", "tool-name", htmlText(call.name))}${call.path !== undefined ? ` ${el("span", "path", htmlText(call.path))}` : ""}</div>`;
  const command = call.command !== undefined ? pre(call.command, "bash") : "";
  return el("div", "tool-call", head + command + details("Arguments", pre(call.args, "json")));
}

function body(block: ReaderBlock): string {
  switch (block.kind) {
    case "user":
    case "custom":
      return markdown(block.text) + images(block);
    case "compaction":
    case "branchSummary":
      return markdown(block.text);
    case "assistant":
      return (block.parts ?? [])
        .map((part) => {
          if (part.type === "text") return markdown(part.text);
          if (part.type === "thinking") return details("Thinking", pre(part.text));
          return toolCall(part.call);
        })
        .join("");
    case "toolResult":
      return details(`${block.title ?? "tool"} ${block.isError ? "error" : "ok"}`, pre(block.text) + images(block));
    case "bash":
      return pre(block.title ?? "", "bash") + details(`Output${block.detail ? ` (${block.detail})` : ""}`, pre(block.text));
    case "system":
      return details("System prompt", pre(block.text));
    case "mark":
      return "";
    case "unknown":
      return details(block.title ?? "Entry", pre(block.text, "json"));
  }
}

function blockHtml(block: ReaderBlock): string {
  const id = `entry-${encodeURIComponent(block.id)}`;
  if (block.kind === "mark") return `<p class="mark" id="${escapeHtml(id)}">${htmlText(block.text)}</p>`;
  const facts = [el("span", "kind", READER_BLOCK_TITLES[block.kind])];
  if (block.kind === "assistant" && block.title) facts.push(el("span", "model", htmlText(block.title)));
  if (block.tokens !== undefined) facts.push(el("span", "tokens", `${block.tokens.toLocaleString("en-US")} tokens${block.kind === "compaction" ? " before" : ""}`));
  if (block.detail && block.kind !== "bash") facts.push(el("span", "detail", htmlText(block.detail)));
  if (block.label !== undefined) facts.push(el("span", "badge label", `label: ${htmlText(block.label)}`));
  if (block.edit) facts.push(el("span", "badge edit", block.edit.replacement === undefined ? "omitted from context" : "replaced in context"));
  if (block.timestamp) facts.push(`<time datetime="${escapeHtml(block.timestamp)}">${htmlText(block.timestamp)}</time>`);
  const classes = ["block", `block-${block.kind}`, block.isError ? "is-error" : "", block.edit ? (block.edit.replacement === undefined ? "is-omitted" : "is-replaced") : ""].filter(Boolean).join(" ");
  const replacement = block.edit?.replacement !== undefined ? details("What the model sees instead", pre(block.edit.replacement), true) : "";
  return `<article class="${classes}" id="${escapeHtml(id)}">${el("header", "head", facts.join(""))}${body(block)}${replacement}</article>`;
}

export function renderHtml(branch: BranchExport, exportedAt: Date): string {
  const csp = `default-src 'none'; img-src data:; style-src 'sha256-${createHash("sha256").update(CSS).digest("base64")}'; base-uri 'none'; form-action 'none'`;
  const title = branch.title ?? "pi session";
  const facts = [
    branch.sessionPath ? `Session: ${htmlText(branch.sessionPath)}` : "",
    branch.cwd ? `Working directory: ${htmlText(branch.cwd)}` : "",
    `Branch: ${counted(branch.blocks.length, "entry")}, leaf ${htmlText(branch.leafId ?? "(none)")}`,
    `Exported: ${exportedAt.toISOString()}${branch.redacted ? " (secrets redacted)" : ""}`,
  ].filter(Boolean);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${htmlText(title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${htmlText(title)}</h1>
<ul class="facts">${facts.map((fact) => `<li>${fact}</li>`).join("")}</ul>
<main>
${branch.blocks.map(blockHtml).join("\n")}
</main>
</body>
</html>
`;
}
