// Skimming a long line: only the fields the index needs are read exactly (the
// leading ones, and a message's trailing usage/timestamp); a native byte search
// finds the line's end and the content between is not validated. The grammar
// is the entry scanner's (entry-scanner.ts); equality with scanLine on pi's
// layouts is checked by test/unit/session/skim-line.test.ts. Lines laid out
// byte for byte as pi writes them are read faster by pi-layout-skimmer.ts,
// which gives exactly what skimLine gives (and declines everything else).

import {
  lastStringWasEscaped,
  messageKeyIndex,
  scanLine,
  skimMembers,
  skipString,
  skipValue,
  skipWhitespace,
  STOPPED,
  topKeyIndex,
  WHITESPACE,
} from "./entry-scanner.js";
import { asBuffer } from "../bytes/jsonl-reader.js";
import { emptyLineFields, setCaptured, type LineFields, type LineScan, type MessageFields } from "./line-fields.js";
import { skipUsage, takeSpend } from "./usage-scanner.js";
import { decodeValue, type SliceableBuffer } from "./scanned-values.js";

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const encoder = new TextEncoder();

/** Lines shorter than this are always scanned exactly (skimming only pays on long lines). */
export const SKIM_MIN_BYTES = 256;
const TAIL_TIMESTAMP = encoder.encode('"timestamp":');
const TAIL_USAGE = encoder.encode('"usage":');
/** Entry types whose later members the index reads (or that are rare): always scanned exactly. */
const NOT_SKIMMED: ReadonlySet<string> = new Set(["compaction", "branch_summary", "session", "usage", "label", "session_info"]);
/** How far from the end of a line the message's trailing members are looked for. */
export const TAIL_WINDOW = 4096;

/**
 * Like scanLine, but on a long line it reads only what the index needs: the
 * leading fields (pi writes type, id, parentId, timestamp first, and a
 * message's role before its content), and for a message the trailing members
 * pi writes after the content (usage, stopReason, timestamp), parsed exactly
 * from where they start to the line's closing `}}`. The content in between is
 * not validated (a native search found the line's end). Assumes pi's layout:
 * `message` is the entry's last member. Anything else is scanned exactly, and
 * so is a user or assistant message whose tail holds no timestamp (written
 * before its usage, it would lie between the content and the tail), and a
 * tool result with no usage in its tail but a `"usage":` before it.
 */
export function skimLine(bytes: Uint8Array, start: number, end: number): LineScan {
  if (end - start < SKIM_MIN_BYTES) return scanLine(bytes, start, end);
  const b = asBuffer(bytes) as SliceableBuffer;
  const p = skipWhitespace(b, start, end);
  if (p >= end || b[p] !== OPEN_OBJECT) return scanLine(bytes, start, end);
  const fields = emptyLineFields();
  const q = skimMembers(b, p, end, fields);
  if (q !== STOPPED) return q < 0 ? scanLine(bytes, start, end) : finishExact(b, q, end, fields, start);
  const type = fields.type;
  if (typeof type !== "string" || NOT_SKIMMED.has(type)) return scanLine(bytes, start, end);
  let last = end;
  while (last > start && WHITESPACE[b[last - 1]!] === 1) last--;
  if (last <= start || b[last - 1] !== CLOSE_OBJECT) return scanLine(bytes, start, end);
  if (type !== "message") {
    // No member the index needs comes after the first big one (custom_message, custom, unknown types)
    // when id, parentId and timestamp came before it; otherwise the line is scanned.
    return fields.message === undefined && typeof fields.id === "string" && fields.parentId !== undefined && fields.timestamp !== undefined
      ? { kind: "object", fields }
      : scanLine(bytes, start, end);
  }
  if (fields.message === undefined) return scanLine(bytes, start, end);
  const message = fields.message;
  if (!message.isObject || typeof message.role !== "string") return scanLine(bytes, start, end);
  const from = Math.max(start, last - TAIL_WINDOW);
  const wantsUsage = message.role === "assistant" || message.role === "toolResult";
  const tailStart = wantsUsage ? lastIndexOfBytes(b, TAIL_USAGE, from, last) : -1;
  // A tool result's usage written more than TAIL_WINDOW before the end (another writer's key order):
  // the line is scanned, never read as having none.
  if (message.role === "toolResult" && tailStart < 0 && from > start && lastIndexOfBytes(b, TAIL_USAGE, start, Math.min(last, from + TAIL_USAGE.length - 1)) >= 0) {
    return scanLine(bytes, start, end);
  }
  const at = tailStart >= 0 ? tailStart : lastIndexOfBytes(b, TAIL_TIMESTAMP, from, last);
  if (at < 0 || (message.role === "assistant" && tailStart < 0)) return scanLine(bytes, start, end);
  const tail = scanTailMembers(b, at, last, message, fields);
  if (tail === TAIL_FAILED) return scanLine(bytes, start, end);
  // The index reads a user's or assistant's own timestamp: not in the tail, it may sit
  // between the content and the usage (a writer that keeps its caller's key order).
  if (tail === TAIL_WITHOUT_TIMESTAMP && (message.role === "user" || message.role === "assistant")) return scanLine(bytes, start, end);
  return { kind: "object", fields };
}

function finishExact(b: SliceableBuffer, p: number, end: number, fields: LineFields, start: number): LineScan {
  p = skipWhitespace(b, p, end);
  return p < end ? scanLine(b, start, end) : { kind: "object", fields };
}

/** Last `needle` inside [from, to) (searched in that window only: the buffer may hold many lines). */
function lastIndexOfBytes(b: Buffer, needle: Uint8Array, from: number, to: number): number {
  const at = b.subarray(from, to).lastIndexOf(needle);
  return at >= 0 ? from + at : -1;
}

const TAIL_FAILED = 0;
const TAIL_WITHOUT_TIMESTAMP = 1;
const TAIL_WITH_TIMESTAMP = 2;
type TailScan = typeof TAIL_FAILED | typeof TAIL_WITHOUT_TIMESTAMP | typeof TAIL_WITH_TIMESTAMP;

/**
 * Members from `p` (a key's quote) to the end of the line at `last`, exactly:
 * the rest of the message object, its `}`, then any top-level members after
 * it (pi's migration writes id and parentId there) and the final `}`.
 * Captures the message's timestamp and usage and the top-level fields; says
 * whether the message's timestamp was among them.
 */
function scanTailMembers(b: SliceableBuffer, p: number, last: number, message: MessageFields, fields: LineFields): TailScan {
  let timestamp: unknown;
  let spend: MessageFields["spend"];
  let hasUsage = false;
  // Top-level members after the message go straight into `fields` (a later member wins,
  // as in JSON.parse); on failure the caller scans the line again into new fields.
  let level: 0 | 1 = 1;
  for (;;) {
    if (p >= last || b[p] !== QUOTE) return TAIL_FAILED;
    const ks = p + 1;
    p = skipString(b, p, last);
    if (p < 0) return TAIL_FAILED;
    const k = level === 1 ? messageKeyIndex(b, ks, p - 1, lastStringWasEscaped()) : topKeyIndex(b, ks, p - 1, lastStringWasEscaped());
    // A second role or content, or a second message: not the layout this reads.
    if ((level === 1 && (k === 0 || k === 2)) || (level === 0 && k === -2)) return TAIL_FAILED;
    p = skipWhitespace(b, p, last);
    if (p >= last || b[p] !== COLON) return TAIL_FAILED;
    const vs = skipWhitespace(b, p + 1, last);
    const usage = level === 1 && k === 3;
    p = usage ? skipUsage(b, vs, last) : skipValue(b, vs, last);
    if (p < 0) return TAIL_FAILED;
    if (level === 1) {
      if (k === 1) timestamp = decodeValue(b, vs, p, lastStringWasEscaped());
      else if (usage) {
        spend = takeSpend();
        hasUsage = true;
      }
    } else if (k >= 0) {
      setCaptured(fields, k, decodeValue(b, vs, p, lastStringWasEscaped()));
    }
    p = skipWhitespace(b, p, last);
    if (p < last && b[p] === COMMA) {
      p = skipWhitespace(b, p + 1, last);
      continue;
    }
    if (p >= last || b[p] !== CLOSE_OBJECT) return TAIL_FAILED;
    if (level === 0) {
      if (p !== last - 1) return TAIL_FAILED;
      break;
    }
    p = skipWhitespace(b, p + 1, last);
    if (p === last - 1 && b[p] === CLOSE_OBJECT) break;
    if (p >= last || b[p] !== COMMA) return TAIL_FAILED;
    level = 0;
    p = skipWhitespace(b, p + 1, last);
  }
  if (timestamp !== undefined) message.timestamp = timestamp;
  if (hasUsage) message.spend = spend;
  return timestamp !== undefined ? TAIL_WITH_TIMESTAMP : TAIL_WITHOUT_TIMESTAMP;
}
