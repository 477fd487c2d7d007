// omp's serializeConversation without a dialect (agent-core compaction/utils.ts):
// the legacy transcript a summary is asked over — `[User]:`, `[Think]:`,
// `[Assistant]:`, `[Tool Call]: name(k=JSON, …)`, `[Tool Result]:` (cut at 2000
// characters); useless results and their calls left out; developer messages
// are not part of it.

import type { OmpMessage } from "./messages.js";

const TOOL_RESULT_MAX_CHARS = 2000;

function truncateToolResult(text: string): string {
  if (text.length <= TOOL_RESULT_MAX_CHARS) return text;
  return `${text.slice(0, TOOL_RESULT_MAX_CHARS)}\n\n[... ${text.length - TOOL_RESULT_MAX_CHARS} more characters truncated]`;
}

const json = (v: unknown): string => {
  try {
    return JSON.stringify(v) ?? "null";
  } catch {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === "bigint" ? x.toString() : x)) ?? "null";
  }
};

const joinedText = (content: OmpMessage[]): string =>
  content
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("");

/** The tool call ids whose results `messages` marks useless (those calls and results are left out). */
export function uselessToolCallIds(messages: Iterable<OmpMessage>, into: Set<string> = new Set()): Set<string> {
  for (const msg of messages) if (isUselessResult(msg)) into.add(msg.toolCallId);
  return into;
}

export const isUselessResult = (msg: OmpMessage): boolean => msg.role === "toolResult" && msg.useless === true && msg.isError !== true;

/** One message's parts of the transcript, given the useless tool call ids of the whole list. */
export function serializeMessageInto(msg: OmpMessage, useless: ReadonlySet<string>, parts: string[]): void {
  if (msg.role === "user") {
    const content = typeof msg.content === "string" ? msg.content : joinedText(msg.content);
    if (content) parts.push(`[User]: ${content}`);
  } else if (msg.role === "assistant") {
    const text: string[] = [];
    const thinking: string[] = [];
    const calls: OmpMessage[] = [];
    for (const block of msg.content as OmpMessage[]) {
      if (block.type === "text") text.push(block.text);
      else if (block.type === "thinking") thinking.push(block.thinking);
      else if (block.type === "toolCall" && !useless.has(block.id)) calls.push(block);
    }
    if (thinking.length > 0) parts.push(`[Think]: ${thinking.join("\n")}`);
    if (text.length > 0) parts.push(`[Assistant]: ${text.join("\n")}`);
    if (calls.length > 0) {
      const rendered = calls
        .map((call) => `${call.name}(${Object.entries(call.arguments as Record<string, unknown>).map(([k, v]) => `${k}=${json(v)}`).join(", ")})`)
        .join("; ");
      parts.push(`[Tool Call]: ${rendered}`);
    }
  } else if (msg.role === "toolResult") {
    if (useless.has(msg.toolCallId)) return;
    const content = joinedText(msg.content);
    if (content) parts.push(`[Tool Result]: ${truncateToolResult(content)}`);
  }
}

export function ompSerializeConversation(messages: readonly OmpMessage[]): string {
  const useless = uselessToolCallIds(messages);
  const parts: string[] = [];
  for (const msg of messages) serializeMessageInto(msg, useless, parts);
  return parts.join("\n\n");
}
