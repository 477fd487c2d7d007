// The conversation text omp 18.3.4 puts between <conversation> tags of a summary
// call (agent-core serializeConversationForSummary): useless tool results and
// their calls left out, tool results cut at 2000 characters, then the model
// family's transcript dialect (pi-ai dialect renderTranscript, no tool schemas),
// then `<conversation>` / `<previous-summary>` tags escaped. Ported: the "xml"
// dialect (every model omp does not classify) and "anthropic" (Claude: thinking
// dropped, calls in <function_calls>, results in <function_results>). The
// other dialects (harmony for OpenAI, qwen3, glm, kimi, deepseek, minimax,
// gemini, gemma) are not: `summaryTranscript` returns undefined for them.

import type { OmpMessage } from "./messages.js";
import type { OmpDialect } from "./model-dialect.js";

const TOOL_RESULT_MAX_CHARS = 2000;
const BOUNDARY_TAGS = /<\s*\/?\s*(?:conversation|previous-summary)\s*>/gi;

export const PORTED_DIALECTS: ReadonlySet<OmpDialect> = new Set(["xml", "anthropic"]);

/** truncateToolResultForSummary. */
export function truncateToolResult(text: string): string {
  if (text.length <= TOOL_RESULT_MAX_CHARS) return text;
  return `${text.slice(0, TOOL_RESULT_MAX_CHARS)}\n\n[... ${text.length - TOOL_RESULT_MAX_CHARS} more characters truncated]`;
}

/** escapeSummaryBoundaryTags: `<conversation>` → `&lt;conversation>` (and the closing and previous-summary tags). */
export function escapeSummaryBoundaryTags(text: string): string {
  return text.replace(BOUNDARY_TAGS, (tag) => `&lt;${tag.slice(1)}`);
}

const jsonOf = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? "null";
  }
};

const escapeAttribute = (s: string): string => s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const escapeText = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** A message's text: string content, or text parts joined, images as `[Image: mime]`. */
function plainContent(content: unknown): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const part of (content ?? []) as OmpMessage[]) {
    if (part.type === "text" && part.text !== undefined) text += part.text;
    else if (part.type === "image") text += part.mimeType ? `[Image: ${part.mimeType}]` : "[Image]";
  }
  return text;
}

function assistantParts(message: OmpMessage): { text: string; thinking: string; calls: OmpMessage[] } {
  let text = "";
  const thinking: string[] = [];
  const calls: OmpMessage[] = [];
  for (const block of message.content as OmpMessage[]) {
    if (block.type === "text") text += block.text;
    else if (block.type === "thinking") thinking.push(block.thinking);
    else if (block.type === "toolCall") calls.push(block);
  }
  return { text, thinking: thinking.join("\n"), calls };
}

interface ToolResultPart {
  name: string;
  text: string;
  isError: boolean;
}

function isSpace(c: number): boolean {
  return c === 9 || c === 10 || c === 11 || c === 12 || c === 13 || c === 32;
}
function skipSpace(s: string, from: number, to: number): number {
  let i = from;
  while (i < to && isSpace(s.charCodeAt(i))) i++;
  return i;
}
function trimSpaceEnd(s: string, from: number, to: number): number {
  let i = to;
  while (i > from && isSpace(s.charCodeAt(i - 1))) i--;
  return i;
}
function closingIndex(open: string, close: string, s: string, from: number, to: number): number {
  let depth = 1;
  let i = from;
  while (i < to) {
    const c = s.indexOf(close, i);
    if (c < 0 || c >= to) return -1;
    const o = s.indexOf(open, i);
    if (o >= 0 && o < c) {
      depth++;
      i = o + open.length;
      continue;
    }
    depth--;
    if (depth === 0) return c;
    i = c + close.length;
  }
  return -1;
}
/** Thinking already wrapped in the tags is unwrapped (recursively), so it is not wrapped twice. */
function unwrapDelimited(open: string, close: string, s: string): string {
  const end = trimSpaceEnd(s, 0, s.length);
  let i = skipSpace(s, 0, end);
  if (i >= end || !s.startsWith(open, i)) return s;
  const parts: string[] = [];
  while (i < end) {
    if (!s.startsWith(open, i)) return s;
    const inner = i + open.length;
    const c = closingIndex(open, close, s, inner, end);
    if (c < 0) return s;
    const innerEnd = trimSpaceEnd(s, inner, c);
    const innerStart = skipSpace(s, inner, innerEnd);
    parts.push(unwrapDelimited(open, close, s.slice(innerStart, innerEnd)));
    i = skipSpace(s, c + close.length, end);
  }
  return parts.join("\n");
}
function renderThinking(thinking: string): string {
  if (!thinking) return "";
  return `<thinking>\n${unwrapDelimited("<thinking>", "</thinking>", thinking)}\n</thinking>`;
}

function renderInvoke(call: OmpMessage): string {
  let s = `<invoke name="${escapeAttribute(String(call.name))}">`;
  const args = (call.arguments ?? {}) as Record<string, unknown>;
  for (const key in args) s += `<parameter name="${escapeAttribute(key)}">${jsonOf(args[key])}</parameter>`;
  return `${s}</invoke>`;
}

interface DialectRenderers {
  thinking(thinking: string): string;
  calls(calls: OmpMessage[]): string;
  results(results: ToolResultPart[]): string;
}

const XML: DialectRenderers = {
  thinking: renderThinking,
  calls: (calls) => calls.map(renderInvoke).join("\n"),
  results: (results) => results.map((r) => `<tool_response>\n${r.text}\n</tool_response>`).join("\n"),
};

const ANTHROPIC: DialectRenderers = {
  thinking: renderThinking,
  calls: (calls) => (calls.length === 0 ? "" : `<function_calls>\n${calls.map(renderInvoke).join("\n")}\n</function_calls>`),
  results: (results) =>
    `<function_results>\n${results
      .map((r) => {
        const tag = r.isError ? "error" : "result";
        const stream = r.isError ? "stderr" : "stdout";
        return `<${tag}>\n<tool_name>${escapeText(r.name)}</tool_name>\n<${stream}>${r.text}</${stream}>\n</${tag}>`;
      })
      .join("\n")}\n</function_results>`,
};

/** The "Human: / Assistant:" transcript both dialects share (pi-ai renderHumanAssistantTranscript). */
function humanAssistantTranscript(messages: readonly OmpMessage[], r: DialectRenderers): string {
  let out = "";
  for (let i = 0; i < messages.length; ) {
    const m = messages[i]!;
    if (m.role === "assistant") {
      const a = assistantParts(m);
      out = `${out}\n\nAssistant: ${r.thinking(a.thinking)}${a.text}${r.calls(a.calls)}`;
      i++;
      continue;
    }
    if (m.role === "toolResult") {
      const results: ToolResultPart[] = [];
      while (i < messages.length && messages[i]!.role === "toolResult") {
        const t = messages[i]!;
        results.push({ name: t.toolName, text: plainContent(t.content), isError: t.isError });
        i++;
      }
      out = `${out}\n\nHuman: ${r.results(results)}`;
      continue;
    }
    const text = plainContent(m.content);
    if (m.role === "developer") out = text ? (out ? `${out}\n\n${text}` : text) : out;
    else out = `${out}\n\nHuman: ${text}`;
    i++;
  }
  return out;
}

/** The transcript of LLM messages in a dialect, before escaping; undefined for a dialect not ported. */
function dialectTranscript(messages: readonly OmpMessage[], dialect: OmpDialect): string | undefined {
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
  if (dialect === "xml") return humanAssistantTranscript(kept, XML);
  if (dialect === "anthropic") return humanAssistantTranscript(kept, ANTHROPIC);
  return undefined;
}

/** serializeConversationForSummary(messages, dialect); undefined when the dialect is not ported. */
export function summaryTranscript(messages: readonly OmpMessage[], dialect: OmpDialect): string | undefined {
  const text = dialectTranscript(messages, dialect);
  return text === undefined ? undefined : escapeSummaryBoundaryTags(text);
}
