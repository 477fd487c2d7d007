// A branch as readable Markdown: one section per entry, marked with an
// `<!-- entry ID -->` comment; user and assistant text as written (it is
// markdown), tool calls as fenced code, tool output folded in <details>.
// Bidi controls are shown as ⟨U+202E⟩ tokens.
import { READER_BLOCK_TITLES, type ReaderBlock } from "../reader/reader-block";
import { showBidiControls } from "../text/bidi-controls";
import type { BranchExport } from "./branch-export";
import { fenced } from "./fences";
import { counted } from "../text/counted.js";


/** The marker before each entry's section (the id URI-encoded, so it cannot end the comment). */
export function entryMarker(id: string): string {
  return `<!-- entry ${encodeURIComponent(id)} -->`;
}

function details(summary: string, body: string): string {
  return `<details><summary>${escapeSummary(summary)}</summary>\n\n${body}\n\n</details>`;
}

function escapeSummary(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/\n/g, " ");
}

function heading(block: ReaderBlock): string {
  const facts = [READER_BLOCK_TITLES[block.kind]];
  if (block.kind === "assistant" && block.title) facts.push(block.title);
  if (block.tokens !== undefined) facts.push(block.kind === "compaction" ? `${block.tokens} tokens before` : `${block.tokens} tokens`);
  if (block.detail && block.kind !== "bash") facts.push(block.detail);
  if (block.label !== undefined) facts.push(`label: ${block.label}`);
  if (block.edit) facts.push(block.edit.replacement === undefined ? "omitted from context" : "replaced in context");
  if (block.timestamp) facts.push(block.timestamp);
  return `### ${facts.join(" · ")}`;
}

function body(block: ReaderBlock): string[] {
  switch (block.kind) {
    case "user":
    case "custom":
      return [block.text];
    case "assistant":
      return (block.parts ?? []).map((part) => {
        if (part.type === "text") return part.text;
        if (part.type === "thinking") return details("Thinking", fenced(part.text, "text"));
        const call = part.call;
        const lines = [`**Tool call** \`${call.name.replace(/`/g, "'")}\`${call.path !== undefined ? ` ${call.path}` : ""}`];
        if (call.command !== undefined) lines.push(fenced(call.command, "bash"));
        lines.push(details("Arguments", fenced(call.args, "json")));
        return lines.join("\n\n");
      });
    case "toolResult":
      return [details(`${block.title ?? "tool"} ${block.isError ? "error" : "ok"}`, fenced(block.text, "text"))];
    case "bash":
      return [fenced(block.title ?? "", "bash"), details(`Output${block.detail ? ` (${block.detail})` : ""}`, fenced(block.text, "text"))];
    case "system":
      return [details("System prompt", fenced(block.text, "text"))];
    case "compaction":
    case "branchSummary":
      return [block.text];
    case "mark":
      return [];
    case "unknown":
      return [details(block.title ?? "Entry", fenced(block.text, "json"))];
  }
}

export function renderMarkdown(branch: BranchExport, exportedAt: Date): string {
  const out: string[] = [`# ${showBidiControls(branch.title ?? "pi session")}`, ""];
  if (branch.sessionPath) out.push(`- Session: \`${branch.sessionPath.replace(/`/g, "'")}\``);
  if (branch.cwd) out.push(`- Working directory: \`${branch.cwd.replace(/`/g, "'")}\``);
  out.push(`- Branch: ${counted(branch.blocks.length, "entry")}, leaf ${branch.leafId ?? "(none)"}`);
  out.push(`- Exported: ${exportedAt.toISOString()}${branch.redacted ? " (secrets redacted)" : ""}`);
  for (const block of branch.blocks) {
    out.push("", entryMarker(block.id));
    if (block.kind === "mark") {
      out.push(`*${block.text.replace(/([*_\\`])/g, "\\$1")}*`);
      continue;
    }
    out.push(heading(block), "");
    out.push(...body(block).flatMap((part, i) => (i === 0 ? [part] : ["", part])));
    if (block.edit?.replacement !== undefined) out.push("", details("What the model sees instead", fenced(block.edit.replacement, "text")));
  }
  return `${showBidiControls(out.join("\n"))}\n`;
}
