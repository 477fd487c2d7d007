// pi's estimateTokens (compaction.js): ceil(chars / 4), a deliberate
// overestimate. Equal to pi for every well-formed message. pi throws on junk
// (content not an array, a text block without text, a tool call without
// arguments, a bash run without output…); here such parts count as 0 chars.

import { isObject, type ContextMessage } from "../context/context-message.js";

/** pi counts each image as 4800 chars (1200 tokens). */
export const IMAGE_CHARS = 4800;

export function estimateTokens(message: ContextMessage): number {
  if (!isObject(message)) return 0;
  switch (message.role) {
    case "user":
      return Math.ceil(contentChars(message.content, false) / 4);
    case "assistant":
      return Math.ceil(assistantChars(message.content) / 4);
    case "custom":
    case "toolResult":
      return Math.ceil(contentChars(message.content, true) / 4);
    case "bashExecution":
      return Math.ceil((textLength(message.command) + textLength(message.output)) / 4);
    case "branchSummary":
    case "compactionSummary":
      return Math.ceil(textLength(message.summary) / 4);
    default:
      return 0;
  }
}

function textLength(value: unknown): number {
  return typeof value === "string" ? value.length : 0;
}

function contentChars(content: unknown, countImages: boolean): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text") chars += textLength(block.text);
    else if (countImages && block.type === "image") chars += IMAGE_CHARS;
  }
  return chars;
}

function assistantChars(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text") chars += textLength(block.text);
    else if (block.type === "thinking") chars += textLength(block.thinking);
    else if (block.type === "toolCall") chars += textLength(block.name) + jsonLength(block.arguments);
  }
  return chars;
}

function jsonLength(value: unknown): number {
  try {
    return textLength(JSON.stringify(value));
  } catch {
    return 0; // a cycle or a BigInt cannot come from a JSON file; be safe anyway
  }
}
