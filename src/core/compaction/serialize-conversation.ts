// pi's serializeConversation (compaction/utils.js): model messages as plain
// text, so the summariser reads a transcript instead of continuing it. Equal to
// pi for well-formed messages. Where pi would throw on junk, this reads a
// string tool-result content as its text, and other non-array content or a
// tool call without arguments as empty.

import type { LlmMessage } from "../session/format/types.js";
import { isObject } from "../context/context-message.js";

/** Tool results longer than this are cut in the transcript. */
export const TOOL_RESULT_MAX_CHARS = 2000;

export function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const truncatedChars = text.length - maxChars;
  return `${text.slice(0, maxChars)}\n\n[... ${truncatedChars} more characters truncated]`;
}

export function serializeConversation(messages: readonly LlmMessage[]): string {
  const parts: string[] = [];
  for (const msg of messages) {
    if (!isObject(msg)) continue;
    if (msg.role === "user") {
      const content = typeof msg.content === "string" ? msg.content : joinText(msg.content);
      if (content) parts.push(`[User]: ${content}`);
    } else if (msg.role === "assistant") {
      serializeAssistant(msg.content, parts);
    } else if (msg.role === "toolResult") {
      const content = typeof msg.content === "string" ? msg.content : joinText(msg.content);
      if (content) parts.push(`[Tool result]: ${truncateForSummary(content, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}

/** Text blocks joined with nothing between them, as pi does. */
function joinText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .filter((c): c is Record<string, unknown> => isObject(c) && c.type === "text")
    .map((c) => c.text)
    .join("");
}

function serializeAssistant(content: unknown, parts: string[]): void {
  if (!Array.isArray(content)) return;
  const textParts: unknown[] = [];
  const thinkingParts: unknown[] = [];
  const toolCalls: string[] = [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === "text") {
      textParts.push(block.text);
    } else if (block.type === "thinking") {
      thinkingParts.push(block.thinking);
    } else if (block.type === "toolCall") {
      const args = isObject(block.arguments) ? block.arguments : {};
      const argsStr = Object.entries(args)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(", ");
      toolCalls.push(`${String(block.name)}(${argsStr})`);
    }
  }
  if (thinkingParts.length > 0) parts.push(`[Assistant thinking]: ${thinkingParts.join("\n")}`);
  if (textParts.length > 0) parts.push(`[Assistant]: ${textParts.join("\n")}`);
  if (toolCalls.length > 0) parts.push(`[Assistant tool calls]: ${toolCalls.join("; ")}`);
}
