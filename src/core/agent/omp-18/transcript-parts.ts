// The pieces pi-ai's transcript dialects (omp 18.3.4, pi-ai dialect/*) share:
// a message's plain text, an assistant's text / thinking / tool calls, a run of
// tool results, JSON and Python-style values, escapes, and thinking wrapped in
// a pair of tags (an already wrapped text is not wrapped twice).

import type { OmpMessage } from "./messages.js";

export interface ToolResultPart {
  id: string;
  name: string;
  /** Position in its run of results. */
  index: number;
  text: string;
  isError: boolean;
}

/** JSON.stringify as pi-ai's safe stringify (bigints as strings); "null" for undefined. */
export const jsonOf = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? "null";
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) ?? "null";
  }
};

export const escapeAttribute = (s: string): string => s.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
export const escapeText = (s: string): string => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

/** A message's text: string content, or text parts joined, images as `[Image: mime]`. */
export function plainContent(content: unknown): string {
  if (typeof content === "string") return content;
  let text = "";
  for (const part of (content ?? []) as OmpMessage[]) {
    if (part.type === "text" && part.text !== undefined) text += part.text;
    else if (part.type === "image") text += part.mimeType ? `[Image: ${part.mimeType}]` : "[Image]";
  }
  return text;
}

export function assistantParts(message: OmpMessage): { text: string; thinking: string; calls: OmpMessage[] } {
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

/** The run of tool results starting at `from`, and where the run ends. */
export function toolResultRun(messages: readonly OmpMessage[], from: number): { results: ToolResultPart[]; next: number } {
  const results: ToolResultPart[] = [];
  let i = from;
  while (i < messages.length && messages[i]!.role === "toolResult") {
    const m = messages[i]!;
    results.push({ id: m.toolCallId, name: m.toolName, index: results.length, text: plainContent(m.content), isError: m.isError });
    i++;
  }
  return { results, next: i };
}

/** A Python string literal as pi-ai writes one. */
const pyString = (s: string): string => `"${s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("\n", "\\n").replaceAll("\r", "\\r").replaceAll("\t", "\\t")}"`;

/** A value in Python's literal syntax (None, True, [..], {"k": v}). */
export function pyValue(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : pyString(String(value));
  if (typeof value === "string") return pyString(value);
  if (Array.isArray(value)) return `[${value.map(pyValue).join(", ")}]`;
  if (typeof value === "object") {
    let s = "";
    for (const key in value as Record<string, unknown>) s += `${s ? ", " : ""}${pyString(key)}: ${pyValue((value as Record<string, unknown>)[key])}`;
    return `{${s}}`;
  }
  return pyString(String(value));
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

/** Thinking between a pair of tags on their own lines ("" when there is none). */
export function delimitedThinking(open: string, close: string, thinking: string): string {
  if (!thinking) return "";
  return `${open}\n${unwrapDelimited(open, close, thinking)}\n${close}`;
}
