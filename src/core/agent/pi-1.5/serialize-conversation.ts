// pi 1.5.2's serializeConversation (compaction/utils.js): the transcript a
// summariser reads. Against 0.73.1: thinking is left out, text is pi-ai's
// contentText (user / tool result blocks joined with "", assistant with "\n"),
// and a long tool result is cut without splitting a surrogate pair.

import { isObject } from "../../context/context-message.js";
import { TOOL_RESULT_MAX_CHARS } from "../../compaction/serialize-conversation.js";
import type { LlmMessage } from "../../session/format/types.js";
import { contentText } from "./system-message.js";

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** pi's sliceHead: at most `maxUnits` UTF-16 units, never half a surrogate pair. */
export function sliceHead(text: string, maxUnits: number): string {
  const end = Math.max(0, maxUnits);
  return isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))
    ? text.slice(0, end - 1)
    : text.slice(0, end);
}

export function truncateForSummary(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return `${sliceHead(text, maxChars)}\n\n[... ${text.length - maxChars} more characters truncated]`;
}

function serializeAssistant(content: unknown, parts: string[]): void {
  if (!Array.isArray(content)) return;
  const toolCalls: string[] = [];
  for (const block of content) {
    if (!isObject(block) || block.type !== "toolCall") continue;
    const args = isObject(block.arguments) ? block.arguments : {};
    const argsStr = Object.entries(args)
      .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
      .join(", ");
    toolCalls.push(`${String(block.name)}(${argsStr})`);
  }
  if (content.some((block) => isObject(block) && block.type === "text")) parts.push(`[Assistant]: ${contentText(content)}`);
  if (toolCalls.length > 0) parts.push(`[Assistant tool calls]: ${toolCalls.join("; ")}`);
}

export function serializeConversation(messages: readonly LlmMessage[]): string {
  const parts: string[] = [];
  for (const msg of messages) {
    if (!isObject(msg)) continue;
    if (msg.role === "user") {
      const content = contentText(msg.content, "");
      if (content) parts.push(`[User]: ${content}`);
    } else if (msg.role === "assistant") {
      serializeAssistant(msg.content, parts);
    } else if (msg.role === "toolResult") {
      const content = contentText(msg.content, "");
      if (content) parts.push(`[Tool result]: ${truncateForSummary(content, TOOL_RESULT_MAX_CHARS)}`);
    }
  }
  return parts.join("\n\n");
}
