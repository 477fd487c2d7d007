// The model an entry's spend is counted under, as pi 1.5.2's
// getUsageCostBreakdown keys it: an assistant answer by
// `${provider}/${responseModel ?? model}`, a usage entry by
// `${provider}/${model}`; other spend has no model.
//
// An assistant line in pi's layout ends `…,"provider":"P","model":"M","usage":{…},…}`
// with responseModel (when any) after the usage: those members are read from
// the bytes near the usage (a string without escapes, between structural
// quotes, can be taken as is). Any other shape parses the line.

import type { SessionEntry } from "../session/format/types.js";
import type { LoadedSession } from "../session/open/loaded-session.js";
import { cellKind, KIND_ASSISTANT, KIND_USAGE, slotOfTimestamp, spendKindOf, type SpendSlotsBuilder } from "./spend-slots.js";
import { asBuffer } from "../session/bytes/jsonl-reader.js";

const USAGE = Buffer.from(',"usage":{', "latin1");
const MODEL = Buffer.from(',"model":', "latin1");
const PROVIDER = Buffer.from(',"provider":', "latin1");
const RESPONSE_MODEL = Buffer.from(',"responseModel":', "latin1");
const NULL = Buffer.from("null", "latin1");
const QUOTE = 0x22;

/** pi's key (String() of each part, as its template literal makes it). */
export function modelKey(provider: unknown, model: unknown): string {
  return `${String(provider)}/${String(model)}`;
}

/** The key of an assistant entry's or usage entry's spend from its parsed body. */
export function spendModelOfEntry(entry: SessionEntry): string | null {
  const e = entry as { type: string; provider?: unknown; model?: unknown; message?: { role?: unknown; provider?: unknown; model?: unknown; responseModel?: unknown } };
  if (e.type === "usage") return modelKey(e.provider, e.model);
  const m = e.message;
  if (e.type === "message" && m && m.role === "assistant") return modelKey(m.provider, m.responseModel ?? m.model);
  return null;
}

/** Start of the plain string (printable ASCII, no escape) whose closing quote is at `close`, or -1. */
function plainStart(b: Uint8Array, close: number, floor: number): number {
  if (b[close] !== QUOTE) return -1;
  for (let p = close - 1; p >= floor; p--) {
    const c = b[p]!;
    if (c === QUOTE) return p;
    if (c < 0x20 || c > 0x7e || c === 0x5c) return -1;
  }
  return -1;
}

/** `b` holds `what` at `from` (a loop: a native compare costs more than these few bytes). */
function holds(b: Uint8Array, from: number, what: Uint8Array): boolean {
  for (let i = 0; i < what.length; i++) if (b[from + i] !== what[i]) return false;
  return true;
}

function endsWith(b: Uint8Array, at: number, what: Uint8Array, floor: number): boolean {
  const from = at - what.length;
  return from >= floor && holds(b, from, what);
}

/**
 * The key of an assistant line in pi's layout (bytes [start, end) of `bytes`), from the bytes alone;
 * undefined when the line is laid out otherwise (the caller parses it).
 */
export function assistantModelFromLine(bytes: Uint8Array, start: number, end: number): string | undefined {
  const u = lastIndexIn(bytes, USAGE, start, end);
  if (u < 0) return undefined;
  const modelOpen = plainStart(bytes, u - 1, start);
  if (modelOpen < 0 || !endsWith(bytes, modelOpen, MODEL, start)) return undefined;
  const beforeModel = modelOpen - MODEL.length;
  const providerOpen = plainStart(bytes, beforeModel - 1, start);
  if (providerOpen < 0 || !endsWith(bytes, providerOpen, PROVIDER, start)) return undefined;
  let modelStart = modelOpen + 1;
  let modelEnd = u - 1;
  const r = indexIn(bytes, RESPONSE_MODEL, u + USAGE.length, end);
  if (r >= 0) {
    const v = r + RESPONSE_MODEL.length;
    if (bytes[v] === QUOTE) {
      let close = v + 1;
      while (close < end && bytes[close] !== QUOTE) close++;
      if (close >= end || plainStart(bytes, close, v) !== v) return undefined;
      const after = bytes[close + 1];
      if (after !== 0x2c && after !== 0x7d) return undefined;
      modelStart = v + 1;
      modelEnd = close;
    } else if (!holds(bytes, v, NULL) || v + NULL.length > end) {
      return undefined;
    }
  }
  return keyOfRanges(bytes, providerOpen + 1, beforeModel - 1, modelStart, modelEnd);
}

/**
 * The last `what` in [start, end), -1 for none: a plain loop from the end (the usage sits a few
 * hundred bytes from a line's end; a native search needs a view of the line made first).
 */
function lastIndexIn(b: Uint8Array, what: Uint8Array, start: number, end: number): number {
  const first = what[0];
  for (let p = end - what.length; p >= start; p--) if (b[p] === first && holds(b, p, what)) return p;
  return -1;
}

/** The first `what` in [from, end), -1 for none (the few bytes after the usage). */
function indexIn(b: Uint8Array, what: Uint8Array, from: number, end: number): number {
  const first = what[0];
  for (let p = from, last = end - what.length; p <= last; p++) if (b[p] === first && b[p + 1] === what[1] && holds(b, p, what)) return p;
  return -1;
}

/** The last key made from bytes, and its bytes: answer after answer names the same model (no new string). */
let lastProvider = Buffer.alloc(0);
let lastModel = Buffer.alloc(0);
let lastKey = "";

function keyOfRanges(b: Uint8Array, ps: number, pe: number, ms: number, me: number): string {
  if (pe - ps === lastProvider.length && me - ms === lastModel.length && holds(b, ps, lastProvider) && holds(b, ms, lastModel)) return lastKey;
  const buffer = asBuffer(b);
  lastProvider = Buffer.from(buffer.subarray(ps, pe));
  lastModel = Buffer.from(buffer.subarray(ms, me));
  lastKey = modelKey(buffer.toString("latin1", ps, pe), buffer.toString("latin1", ms, me));
  return lastKey;
}

/** Adds the spend of every entry of `session` to `into` (a full read's row, or the appended lines of one); `forkedAt`: forkTime of the file's header. */
export function addSessionSpend(into: SpendSlotsBuilder, session: LoadedSession, forkedAt: number): void {
  const index = session.index;
  for (let i = 0; i < index.size; i++) {
    const kind = spendKindOf(index.typeAt(i), index.roleAt(i));
    if (kind < 0) continue;
    const meta = index.at(i);
    if (!meta.spend) continue;
    let model: string | null = null;
    if (kind === KIND_ASSISTANT || kind === KIND_USAGE) {
      // As the streamed row reads it: an answer in pi's layout from its bytes, anything else parsed.
      const line = kind === KIND_ASSISTANT && index.duplicateCount === 0 ? Buffer.from(session.rawLine(meta.id)) : undefined;
      const fromBytes = line ? assistantModelFromLine(line, 0, line.length) : undefined;
      if (fromBytes !== undefined) model = fromBytes;
      else {
        try {
          model = spendModelOfEntry(session.entryAt(meta));
        } catch {
          model = modelKey(undefined, undefined); // a body that cannot be read (a skimmed line damaged in its middle)
        }
      }
    }
    const cell = Number.isNaN(forkedAt) ? kind : cellKind(kind, Date.parse(meta.timestamp), forkedAt);
    into.add(slotOfTimestamp(meta.timestamp), cell, model, meta.spend);
  }
}
