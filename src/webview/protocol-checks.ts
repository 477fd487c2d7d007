// Small validators both webview protocols (summary panel, reader) build on.

export type UnknownRecord = Record<string, unknown>;

export function isRecord(x: unknown): x is UnknownRecord {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

export function isString(x: unknown, maxChars: number, allowEmpty = true): x is string {
  return typeof x === "string" && x.length <= maxChars && (allowEmpty || x.length > 0);
}

export function isOptionalString(x: unknown, maxChars: number): boolean {
  return x === undefined || isString(x, maxChars, false);
}

export function isCount(x: unknown): x is number {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0;
}

export function isOptionalCount(x: unknown): boolean {
  return x === undefined || isCount(x);
}
