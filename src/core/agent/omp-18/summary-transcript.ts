// The conversation text omp 18.3.4 puts between <conversation> tags of a summary
// call (agent-core serializeConversationForSummary): useless tool results and
// their calls left out, tool results cut at 2000 characters, thinking left out
// for the "anthropic" dialect, then the model family's transcript dialect
// (summary-dialects.ts), harmony's own tokens escaped, then `<conversation>` /
// `<previous-summary>` tags escaped. Every dialect omp 18.3.4 picks is ported.

import type { OmpMessage } from "./messages.js";
import type { OmpDialect } from "./model-dialect.js";
import { renderDialectTranscript } from "./summary-dialects.js";

const TOOL_RESULT_MAX_CHARS = 2000;
const BOUNDARY_TAGS = /<\s*\/?\s*(?:conversation|previous-summary)\s*>/gi;

/** truncateToolResultForSummary. */
export function truncateToolResult(text: string): string {
  if (text.length <= TOOL_RESULT_MAX_CHARS) return text;
  return `${text.slice(0, TOOL_RESULT_MAX_CHARS)}\n\n[... ${text.length - TOOL_RESULT_MAX_CHARS} more characters truncated]`;
}

/** escapeSummaryBoundaryTags: `<conversation>` → `&lt;conversation>` (and the closing and previous-summary tags). */
export function escapeSummaryBoundaryTags(text: string): string {
  return text.replace(BOUNDARY_TAGS, (tag) => `&lt;${tag.slice(1)}`);
}

/** The transcript of LLM messages in a dialect, before escaping. */
function dialectTranscript(messages: readonly OmpMessage[], dialect: OmpDialect): string {
  const useless = new Set<string>();
  for (const m of messages) if (m.role === "toolResult" && m.useless === true && m.isError !== true) useless.add(m.toolCallId);
  const dropThinking = dialect === "anthropic";
  const kept: OmpMessage[] = [];
  for (const m of messages) {
    if (m.role === "assistant") {
      const content = (m.content as OmpMessage[]).filter((b) => (b.type !== "toolCall" || !useless.has(b.id)) && (!dropThinking || b.type !== "thinking"));
      if (content.length > 0) kept.push(content.length === m.content.length ? m : { ...m, content });
      continue;
    }
    if (m.role === "toolResult") {
      if (useless.has(m.toolCallId)) continue;
      const text = (m.content as OmpMessage[])
        .filter((b) => b.type === "text")
        .map((b) => b.text)
        .join("");
      if (!text) continue;
      kept.push({ ...m, content: [{ type: "text", text: truncateToolResult(text) }] });
      continue;
    }
    kept.push(m);
  }
  return renderDialectTranscript(kept, dialect);
}

/** serializeConversationForSummary(messages, dialect). */
export function summaryTranscript(messages: readonly OmpMessage[], dialect: OmpDialect): string {
  return escapeSummaryBoundaryTags(dialectTranscript(messages, dialect));
}
