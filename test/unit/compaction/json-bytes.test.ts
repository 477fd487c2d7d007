// The byte walks of json-bytes.ts against JSON.parse / JSON.stringify: where a
// string ends (quotes and backslashes in runs, short and long strings), and
// which numbers are written as JSON.stringify writes them.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalValueEnd, stringEnd, valueEnd } from "../../../src/core/compaction/json-bytes.js";

describe("json-bytes", () => {
  it("stringEnd and valueEnd find the closing quote of any string (runs of quotes and backslashes, short and long)", () => {
    const text = fc.array(fc.constantFrom('"', "\\", "a", "é", "\n", "\\\\", '\\"', "😀"), { maxLength: 90 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.constantFrom("", "x", '"'), (s, after) => {
        const literal = JSON.stringify(s);
        const bytes = Buffer.from(`[${literal},${JSON.stringify(after)}]`);
        const close = Buffer.byteLength(literal);
        expect(stringEnd(bytes, 1)).toBe(close);
        expect(valueEnd(bytes, 1)).toBe(close + 1);
        expect(valueEnd(bytes, 0)).toBe(bytes.length);
      }),
      { numRuns: 5000 },
    );
  });

  it("canonicalValueEnd takes a number exactly when JSON.stringify writes it so", () => {
    const integer = fc.tuple(fc.constantFrom("", "-"), fc.stringMatching(/^[0-9]{1,20}$/)).map(([sign, digits]) => `${sign}${digits}`);
    const number = fc.oneof(integer, fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), fc.constantFrom("1e21", "1E2", "1.0", "-0", "0", "100", "9007199254740993"));
    fc.assert(
      fc.property(number, (token) => {
        // Lines are valid JSON (an exact read checked them): "01" does not occur.
        if (!/^-?(0|[1-9][0-9]*)([.][0-9]+)?([eE][+-]?[0-9]+)?$/.test(token)) return;
        const bytes = Buffer.from(`[${token}]`);
        const canonical = String(JSON.parse(token)) === token;
        expect(canonicalValueEnd(bytes, 1) >= 0, token).toBe(canonical);
        if (canonical) expect(canonicalValueEnd(bytes, 1)).toBe(1 + token.length);
      }),
      { numRuns: 5000 },
    );
  });
});
