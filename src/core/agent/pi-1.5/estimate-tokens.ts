// pi 1.5.2's estimateTokens (compaction/compaction.js): chars / 4, rounded up.
// New against 0.73.1: system messages count their content, sections and the
// JSON of the tools they add (removals are free), and images in user messages
// count 4800 chars like those in tool results. Junk parts count 0 (pi throws).

import { isObject, type ContextMessage } from "../../context/context-message.js";
import { estimateTokens as estimateTokens073, IMAGE_CHARS } from "../../tokens/estimate-tokens.js";

function textAndImageChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  if (!Array.isArray(content)) return 0;
  let chars = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text" && typeof block.text === "string") chars += block.text.length;
    else if (block.type === "image") chars += IMAGE_CHARS;
  }
  return chars;
}

function jsonLength(value: unknown): number {
  try {
    const json = JSON.stringify(value);
    return typeof json === "string" ? json.length : 0;
  } catch {
    return 0;
  }
}

export function estimateTokens(message: ContextMessage): number {
  if (!isObject(message)) return 0;
  switch (message.role) {
    case "system": {
      let chars = textAndImageChars(message.content);
      if (isObject(message.sections)) {
        for (const section of Object.values(message.sections)) if (typeof section === "string") chars += section.length;
      }
      if (message.toolsAdded) chars += jsonLength(message.toolsAdded);
      return Math.ceil(chars / 4);
    }
    case "user":
      return Math.ceil(textAndImageChars(message.content) / 4);
    default:
      return estimateTokens073(message);
  }
}
