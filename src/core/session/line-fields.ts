// What reading one JSONL line yields: the few top-level fields the index needs,
// never the body. Two producers must agree exactly: the fast byte scanner
// (entry-scanner.ts) and `fieldsFromValue(JSON.parse(text))` here, which is
// the reference (and the fallback for odd lines).

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
  /** pi's token/cost record of an answer (assistant, and in pi 1.5 tool results). */
  usage?: unknown;
}

export type LineFields = { [K in CapturedKey]?: unknown } & { message?: MessageFields };

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
  if (Object.hasOwn(v, "usage")) out.usage = v.usage;
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
