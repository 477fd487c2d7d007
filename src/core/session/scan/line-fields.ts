// What reading one JSONL line yields: the few top-level fields the index needs,
// never the body. Two producers must agree exactly: the fast byte scanner
// (entry-scanner.ts) and `fieldsFromValue(JSON.parse(text))` here, which is
// the reference (and the fallback for odd lines). Absent fields are
// `undefined` (JSON has no undefined): the scanner fills objects of one fixed
// shape (emptyLineFields), so reading them stays monomorphic.

import { spendOf } from "./scanned-spend.js";
import type { Spend } from "../format/entry-meta.js";

/** Top-level keys whose values the index keeps (values exactly as JSON.parse gives them). */
export const CAPTURED_KEYS = ["type", "id", "parentId", "timestamp", "targetId", "label", "name", "version", "cwd", "usage"] as const;
export type CapturedKey = (typeof CAPTURED_KEYS)[number];

/** What the index needs from `message`: pi's checks use role, timestamp and `"content" in message`. */
export interface MessageFields {
  /** A JSON object (not an array, not null). */
  isObject: boolean;
  role?: unknown;
  timestamp?: unknown;
  hasContent: boolean;
  /** What `message.usage` spends (spendOf), when there is a `usage` member; counted for assistant and pi 1.5 tool results. */
  spend?: Spend;
}

export type LineFields = { [K in CapturedKey]?: unknown } & { message?: MessageFields };

/** A LineFields with every member present and undefined (one shape for all lines). */
export function emptyLineFields(): LineFields {
  return {
    type: undefined,
    id: undefined,
    parentId: undefined,
    timestamp: undefined,
    targetId: undefined,
    label: undefined,
    name: undefined,
    version: undefined,
    cwd: undefined,
    usage: undefined,
    message: undefined,
  };
}

/** Sets the captured key CAPTURED_KEYS[k] (a switch: stores of one shape, not keyed stores). */
export function setCaptured(f: LineFields, k: number, value: unknown): void {
  switch (k) {
    case 0: f.type = value; break;
    case 1: f.id = value; break;
    case 2: f.parentId = value; break;
    case 3: f.timestamp = value; break;
    case 4: f.targetId = value; break;
    case 5: f.label = value; break;
    case 6: f.name = value; break;
    case 7: f.version = value; break;
    case 8: f.cwd = value; break;
    case 9: f.usage = value; break;
  }
}

export function emptyMessageFields(isObject: boolean): MessageFields {
  return { isObject, role: undefined, timestamp: undefined, hasContent: false, spend: undefined };
}

export type JsonValueType = "array" | "string" | "number" | "boolean" | "null";

export type LineScan =
  | { kind: "blank" }
  | { kind: "invalid"; /** byte index within the line where scanning failed */ at: number; reason: string }
  | { kind: "value"; valueType: JsonValueType }
  | { kind: "object"; fields: LineFields };

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function messageFieldsFromValue(v: unknown): MessageFields {
  if (!isPlainObject(v)) return { isObject: false, hasContent: false };
  const out: MessageFields = { isObject: true, hasContent: Object.hasOwn(v, "content") };
  if (Object.hasOwn(v, "role")) out.role = v.role;
  if (Object.hasOwn(v, "timestamp")) out.timestamp = v.timestamp;
  if (Object.hasOwn(v, "usage")) out.spend = spendOf(v.usage);
  return out;
}

/** The reference: the scan result for a value JSON.parse returned. */
export function scanFromValue(value: unknown): LineScan {
  if (isPlainObject(value)) {
    const fields: LineFields = {};
    for (const key of CAPTURED_KEYS) {
      if (Object.hasOwn(value, key)) fields[key] = value[key];
    }
    if (Object.hasOwn(value, "message")) fields.message = messageFieldsFromValue(value.message);
    return { kind: "object", fields };
  }
  return { kind: "value", valueType: jsonValueType(value) };
}

export function jsonValueType(value: unknown): JsonValueType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const t = typeof value;
  if (t === "string" || t === "number" || t === "boolean") return t;
  return "null";
}

/** JSON.parse a line's text; blank (JSON whitespace only) and invalid lines are reported, never thrown. */
export function scanText(text: string): LineScan {
  if (/^[ \t\n\r]*$/.test(text)) return { kind: "blank" };
  try {
    return scanFromValue(JSON.parse(text));
  } catch (e) {
    return { kind: "invalid", at: 0, reason: e instanceof Error ? e.message : String(e) };
  }
}
