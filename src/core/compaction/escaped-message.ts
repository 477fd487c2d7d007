// pi 0.73's serializeConversation(convertToLlm([message])) of a user,
// assistant or tool-result message entry, made from the entry's line bytes
// and given as the text already escaped for a JSON string — the form
// `prepare --json` writes it in — without parsing the body: text, thinking,
// tool names and arguments are copied as they are written, which is what
// JSON.stringify would write again where their bytes are canonical
// (json-bytes.ts). A tool result longer than pi's cut is decoded and cut as
// pi cuts it. Anything else — another role or shape, a key written twice or
// with an escape, a value not written as JSON.stringify writes it, a line that
// is not valid UTF-8 — gives undefined, and the caller parses the entry.

import { isUtf8 } from "node:buffer";
import { LINE_ESCAPES_CANONICAL, LINE_IS_UTF8, NO_LINE_CHECKS, type LineChecks } from "../session/scan/line-checks.js";
import type { MessageShape } from "../session/scan/message-shapes.js";
import { TOOL_RESULT_MAX_CHARS, truncateForSummary } from "./serialize-conversation.js";
import { BACKSLASH, bytesEqual, canonicalValueEnd, eachElement, eachMember, escapeJsonText, escapesAreCanonical, OPEN_BRACE, QUOTE, skipSpace, stringEnd, valueEnd } from "./json-bytes.js";

/** A message's serialised text: escaped bytes (segments to concatenate) or, for a cut tool result, the text itself. */
export type DirectText = { escaped: Buffer[] } | { text: string };

export interface DirectMessage {
  text: DirectText;
  /** The tool calls' names and string paths, in order, for addToolFileOp (extractFileOpsFromMessage's input). */
  fileOps: [string, string][];
}

const bytesOf = (text: string): Buffer => Buffer.from(text, "utf8");
const USER = bytesOf("[User]: ");
const ASSISTANT = bytesOf("[Assistant]: ");
const THINKING = bytesOf("[Assistant thinking]: ");
const TOOL_CALLS = bytesOf("[Assistant tool calls]: ");
const TOOL_RESULT = bytesOf("[Tool result]: ");
/** "\n" and "\n\n" as they sit escaped inside a JSON string. */
const ESCAPED_NEWLINE = bytesOf("\\n");
export const ESCAPED_PARAGRAPH = bytesOf("\\n\\n");
const CALL_SEPARATOR = bytesOf("; ");
const ARG_SEPARATOR = bytesOf(", ");
const EQUALS = bytesOf("=");
const OPEN_PAREN = bytesOf("(");
const CLOSE_PAREN = bytesOf(")");

const KEY = {
  message: bytesOf("message"),
  role: bytesOf("role"),
  content: bytesOf("content"),
  type: bytesOf("type"),
  text: bytesOf("text"),
  thinking: bytesOf("thinking"),
  name: bytesOf("name"),
  arguments: bytesOf("arguments"),
  path: bytesOf("path"),
};
const VALUE = {
  user: bytesOf('"user"'),
  assistant: bytesOf('"assistant"'),
  toolResult: bytesOf('"toolResult"'),
  text: bytesOf('"text"'),
  thinking: bytesOf('"thinking"'),
  toolCall: bytesOf('"toolCall"'),
};

/** Not set: -1. A span is [start, end) of a member's value. */
const UNSET = -1;

// The line's escapes are all canonical (checked first): no escape can spell a
// letter, so a key or tag is the name we look for exactly when its bytes are.

/** A string value: its text's bytes are [start + 1, end - 1), as JSON.stringify writes them. */
function isString(line: Buffer, start: number): boolean {
  return line[start] === QUOTE;
}

/** A string value spelt `value` (given with its quotes). */
function isValue(line: Buffer, start: number, end: number, value: Buffer): boolean {
  return bytesEqual(line, start, end, value);
}

/**
 * The text blocks of a user or tool-result content (pi's joinText: text
 * blocks concatenated, other elements skipped) as the bytes of their canonical
 * strings, pushed to `out`; a string content is one. Returns the content's
 * end, or -1 when it must be parsed.
 */
function textSpans(line: Buffer, p: number, out: Buffer[]): number {
  if (line[p] === QUOTE) {
    const close = stringEnd(line, p);
    if (close < 0) return UNSET;
    if (close > p + 1) out.push(line.subarray(p + 1, close));
    return close + 1;
  }
  return eachElement(line, p, (start) => {
    if (line[start] !== OPEN_BRACE) return valueEnd(line, start);
    let type = UNSET;
    let typeEnd = UNSET;
    let text = UNSET;
    let textEnd = UNSET;
    const end = eachMember(line, start, (keyStart, keyEnd, valueStart) => {
      const valueStop = valueEnd(line, valueStart);
      if (bytesEqual(line, keyStart, keyEnd, KEY.type)) {
        if (type !== UNSET) return UNSET;
        [type, typeEnd] = [valueStart, valueStop];
      } else if (bytesEqual(line, keyStart, keyEnd, KEY.text)) {
        if (text !== UNSET) return UNSET;
        [text, textEnd] = [valueStart, valueStop];
      }
      return valueStop;
    });
    if (end < 0 || type === UNSET) return end;
    if (!isValue(line, type, typeEnd, VALUE.text) || text === UNSET) return end;
    // A text that is not a string joins as pi's String(): rare enough to parse.
    if (!isString(line, text)) return UNSET;
    if (textEnd - text > 2) out.push(line.subarray(text + 1, textEnd - 1));
    return end;
  });
}

function userText(line: Buffer, content: number): [number, DirectText] | undefined {
  const spans: Buffer[] = [];
  const end = textSpans(line, content, spans);
  if (end < 0) return undefined;
  return [end, { escaped: spans.length > 0 ? [USER, ...spans] : [] }];
}

function toolResultText(line: Buffer, content: number): [number, DirectText] | undefined {
  const spans: Buffer[] = [];
  const end = textSpans(line, content, spans);
  if (end < 0) return undefined;
  let bytes = 0;
  for (const span of spans) bytes += span.length;
  // A character takes at least one byte: a longer text may be cut, so it is decoded and cut as pi cuts it.
  if (bytes > TOOL_RESULT_MAX_CHARS) {
    // Each span sits between its quotes in the line: decoded with them.
    const text = spans.map((span) => JSON.parse(Buffer.from(span.buffer, span.byteOffset - 1, span.length + 2).toString("utf8")) as string).join("");
    return [end, { text: `[Tool result]: ${truncateForSummary(text, TOOL_RESULT_MAX_CHARS)}` }];
  }
  return [end, { escaped: spans.length > 0 ? [TOOL_RESULT, ...spans] : [] }];
}

/** The text of the string value at [start, end) (its quotes included): decoded as it is when it holds no escape. */
function stringText(line: Buffer, start: number, end: number): string {
  for (let i = start + 1; i < end - 1; i++) if (line[i] === BACKSLASH) return JSON.parse(line.toString("utf8", start, end)) as string;
  return line.toString("utf8", start + 1, end - 1);
}

/** `name(k=JSON.stringify(v), …)` escaped into `out`, its file operation into `fileOps`; false when not canonical. */
function toolCall(line: Buffer, name: [number, number], args: number[] | undefined, out: Buffer[], fileOps: [string, string][]): boolean {
  if (!isString(line, name[0])) return false;
  out.push(line.subarray(name[0] + 1, name[1] - 1), OPEN_PAREN);
  if (args) {
    let path: [number, number] | undefined;
    for (let m = 0; m < args.length; m += 4) {
      const keyStart = args[m]!;
      const keyEnd = args[m + 1]!;
      const valueStart = args[m + 2]!;
      const valueStop = args[m + 3]!;
      if (m > 0) out.push(ARG_SEPARATOR);
      out.push(line.subarray(keyStart, keyEnd), EQUALS, escapeJsonText(line, valueStart, valueStop));
      if (bytesEqual(line, keyStart, keyEnd, KEY.path) && line[valueStart] === QUOTE) path = [valueStart, valueStop];
    }
    if (path) {
      const toolName = stringText(line, name[0], name[1]);
      const pathText = stringText(line, path[0], path[1]);
      if (pathText) fileOps.push([toolName, pathText]);
    }
  }
  out.push(CLOSE_PAREN);
  return true;
}

const BLOCK_KEYS = [KEY.type, KEY.text, KEY.thinking, KEY.name, KEY.arguments];
const ARGUMENTS = 4;

/** pi's serializeAssistant over the content array at `content`. */
function assistantText(line: Buffer, content: number, fileOps: [string, string][]): [number, DirectText] | undefined {
  const thinking: Buffer[] = [];
  const texts: Buffer[] = [];
  const calls: Buffer[] = [];
  let thinkingCount = 0;
  let textCount = 0;
  let callCount = 0;
  const end = eachElement(line, content, (start) => {
    if (line[start] !== OPEN_BRACE) return valueEnd(line, start);
    // type, text, thinking, name, arguments: [start, end) each.
    const spans = [UNSET, UNSET, UNSET, UNSET, UNSET, UNSET, UNSET, UNSET, UNSET, UNSET];
    // The arguments' members when written as JSON.stringify writes them (else undefined).
    let args: number[] | undefined;
    const blockEnd = eachMember(line, start, (keyStart, keyEnd, valueStart) => {
      let k = BLOCK_KEYS.length - 1;
      while (k >= 0 && !bytesEqual(line, keyStart, keyEnd, BLOCK_KEYS[k]!)) k--;
      if (k >= 0 && spans[2 * k] !== UNSET) return UNSET;
      let valueStop: number;
      if (k === ARGUMENTS && line[valueStart] === OPEN_BRACE) {
        const members: number[] = [];
        valueStop = canonicalValueEnd(line, valueStart, members);
        if (valueStop >= 0) args = members;
        else valueStop = valueEnd(line, valueStart);
      } else {
        valueStop = valueEnd(line, valueStart);
      }
      if (k >= 0) {
        spans[2 * k] = valueStart;
        spans[2 * k + 1] = valueStop;
      }
      return valueStop;
    });
    if (blockEnd < 0) return UNSET;
    const [type, typeEnd] = [spans[0]!, spans[1]!];
    if (type === UNSET) return blockEnd;
    const isText = isValue(line, type, typeEnd, VALUE.text);
    if (isText || isValue(line, type, typeEnd, VALUE.thinking)) {
      const [s, e] = isText ? [spans[2]!, spans[3]!] : [spans[4]!, spans[5]!];
      // A missing text joins as "" (Array.join); any other non-string is left to the parser.
      if (s !== UNSET && !isString(line, s)) return UNSET;
      const into = isText ? texts : thinking;
      if ((isText ? textCount++ : thinkingCount++) > 0) into.push(ESCAPED_NEWLINE);
      if (s !== UNSET && e - s > 2) into.push(line.subarray(s + 1, e - 1));
    } else if (isValue(line, type, typeEnd, VALUE.toolCall)) {
      // String(undefined) names a call "undefined": rare enough to parse.
      if (spans[6] === UNSET) return UNSET;
      // Arguments not an object (pi reads them as {}) or not canonical are parsed.
      if (spans[8] !== UNSET && args === undefined) return UNSET;
      if (callCount++ > 0) calls.push(CALL_SEPARATOR);
      if (!toolCall(line, [spans[6]!, spans[7]!], args, calls, fileOps)) return UNSET;
    }
    return blockEnd;
  });
  if (end < 0) return undefined;
  const out: Buffer[] = [];
  const part = (label: Buffer, items: Buffer[], count: number) => {
    if (count === 0) return;
    if (out.length > 0) out.push(ESCAPED_PARAGRAPH);
    out.push(label, ...items);
  };
  part(THINKING, thinking, thinkingCount);
  part(ASSISTANT, texts, textCount);
  part(TOOL_CALLS, calls, callCount);
  return [end, { escaped: out }];
}

const ROLES = [VALUE.user, VALUE.assistant, VALUE.toolResult];

/** The role value at [start, end) when it is one handled here (as written: canonical escapes cannot spell a letter). */
function roleAt(line: Buffer, start: number, end: number): Buffer | undefined {
  for (const role of ROLES) if (isValue(line, start, end, role)) return role;
  return undefined;
}

/** The content at `content` read as a `role` message's; undefined to parse. */
function contentText(line: Buffer, role: Buffer, content: number, fileOps: [string, string][]): [number, DirectText] | undefined {
  return role === VALUE.user ? userText(line, content) : role === VALUE.toolResult ? toolResultText(line, content) : assistantText(line, content, fileOps);
}

/** The message object's members: its serialised text once role and content are read; undefined to parse. */
function messageText(line: Buffer, p: number, fileOps: [string, string][]): [number, DirectText] | undefined {
  let role: Buffer | undefined;
  let text: DirectText | undefined;
  let contentSeen = false;
  const end = eachMember(line, p, (keyStart, keyEnd, valueStart) => {
    if (bytesEqual(line, keyStart, keyEnd, KEY.role)) {
      if (role !== undefined) return UNSET;
      const valueStop = valueEnd(line, valueStart);
      role = roleAt(line, valueStart, valueStop);
      return role ? valueStop : UNSET;
    }
    if (bytesEqual(line, keyStart, keyEnd, KEY.content)) {
      // pi writes the role first; content before it, or twice, is parsed.
      if (role === undefined || contentSeen) return UNSET;
      contentSeen = true;
      const read = contentText(line, role, valueStart, fileOps);
      if (!read) return UNSET;
      text = read[1];
      return read[0];
    }
    return valueEnd(line, valueStart);
  });
  return end < 0 || !text ? undefined : [end, text];
}

/**
 * The serialised text of the message entry on `line` (its bytes without the
 * line break, from an exact read), escaped, with its file operations;
 * undefined when the entry must be parsed instead. `checks`: what the read
 * already established about the line (not checked again); `shape`: where the
 * read found the message's one role and one content (then only the content is
 * walked: the read ruled out a `message`, `role` or `content` written twice).
 */
export function directMessage(line: Buffer, checks: LineChecks = NO_LINE_CHECKS, shape?: MessageShape): DirectMessage | undefined {
  if (shape !== undefined && (checks & LINE_IS_UTF8) !== 0 && (checks & LINE_ESCAPES_CANONICAL) !== 0) {
    const role = roleAt(line, shape.roleStart, shape.roleEnd);
    if (role === undefined) return undefined;
    const fileOps: [string, string][] = [];
    const read = contentText(line, role, shape.contentStart, fileOps);
    if (read === undefined) return undefined;
    if (read[0] === shape.contentEnd) return { text: read[1], fileOps };
    // Not where the read ended it (cannot happen on a line it accepted): the whole walk decides.
  }
  if ((checks & LINE_IS_UTF8) === 0 && !isUtf8(line)) return undefined;
  if ((checks & LINE_ESCAPES_CANONICAL) === 0 && !escapesAreCanonical(line, 0, line.length)) return undefined;
  const fileOps: [string, string][] = [];
  let text: DirectText | undefined;
  const end = eachMember(line, skipSpace(line, 0), (keyStart, keyEnd, valueStart) => {
    if (!bytesEqual(line, keyStart, keyEnd, KEY.message)) return valueEnd(line, valueStart);
    if (text !== undefined) return UNSET;
    const read = messageText(line, valueStart, fileOps);
    if (!read) return UNSET;
    text = read[1];
    return read[0];
  });
  return end < 0 || !text ? undefined : { text, fileOps };
}
