// spendFromBytes reads a usage straight from its bytes: it must equal spendOf
// on what JSON.parse makes of the same bytes, for any JSON value (escaped and
// repeated keys, costs that are arrays or null, odd numbers, whitespace); and
// numberFromBytes must be JSON.parse on any number.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { spendFromBytes, spendOf } from "../../../src/core/session/scan/scanned-spend.js";
import { skipValue } from "../../../src/core/session/scan/entry-scanner.js";
import { numberFromBytes, type SliceableBuffer } from "../../../src/core/session/scan/scanned-values.js";
import { skipUsage, takeSpend } from "../../../src/core/session/scan/usage-scanner.js";

const key = fc.constantFrom("input", "output", "cacheRead", "cacheWrite", "cost", "total", "totalTokens", "\\u0069nput", "cos\\u0074", "tot\\u0061l", "x");
const number = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)), fc.constantFrom("1e400", "-0", "0.5e-3", "-1E+2"));
const scalar = fc.oneof(number.map(String), fc.constantFrom('"7"', "null", "true", "false", "[]", "[1,{\"total\":3}]", '"a\\"b"'));
const space = fc.constantFrom("", " ", "\n\t ");
const member = (value: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.tuple(key, space, value, space).map(([k, s1, v, s2]) => `${s1}"${k}"${s2}:${s1}${v}${s2}`);
const object = (value: fc.Arbitrary<string>): fc.Arbitrary<string> => fc.array(member(value), { maxLength: 7 }).map((ms) => `{${ms.join(",")}}`);
const usage = fc.oneof(object(fc.oneof(scalar, object(scalar))), scalar);

describe("spendFromBytes", () => {
  it("equals spendOf(JSON.parse(bytes)) on any JSON value", () => {
    fc.assert(
      fc.property(usage, fc.string({ maxLength: 3 }), (text, pad) => {
        const bytes = Buffer.from(`${pad}${text}${pad}`) as SliceableBuffer;
        const s = Buffer.byteLength(pad);
        const e = s + Buffer.byteLength(text);
        expect(spendFromBytes(bytes, s, e)).toEqual(spendOf(JSON.parse(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads pi's usage layout", () => {
    const text = '{"input":10,"output":20,"cacheRead":30,"cacheWrite":40,"totalTokens":100,"cost":{"input":0.1,"output":0.2,"total":0.75}}';
    expect(spendFromBytes(Buffer.from(text) as SliceableBuffer, 0, text.length)).toEqual({ input: 10, output: 20, cacheRead: 30, cacheWrite: 40, cost: 0.75 });
  });
});

describe("skipUsage (validate and read in one pass)", () => {
  it("ends where skipValue ends and reads spendOf(JSON.parse(bytes)) on any JSON value", () => {
    fc.assert(
      fc.property(usage, fc.string({ maxLength: 3 }), (text, pad) => {
        const bytes = Buffer.from(`${pad}${text}${pad}`) as SliceableBuffer;
        const s = Buffer.byteLength(pad);
        const end = bytes.length;
        expect(skipUsage(bytes, s, end)).toBe(skipValue(bytes, s, end));
        expect(takeSpend()).toEqual(spendOf(JSON.parse(text)));
      }),
      { numRuns: 3000 },
    );
  });

  it("fails exactly where skipValue fails (damaged values: cut, a byte changed)", () => {
    fc.assert(
      fc.property(usage, fc.nat(), fc.constantFrom("cut", "byte"), fc.constantFrom(..."{}[],:\"\\ 0a-.e\u0001"), (text, at, how, byte) => {
        const i = text.length === 0 ? 0 : at % text.length;
        const damaged = how === "cut" ? text.slice(0, i) : `${text.slice(0, i)}${byte}${text.slice(i + 1)}`;
        const bytes = Buffer.from(damaged) as SliceableBuffer;
        const ok = skipValue(bytes, 0, bytes.length);
        expect(skipUsage(bytes, 0, bytes.length) >= 0).toBe(ok >= 0);
        if (ok >= 0) expect(skipUsage(bytes, 0, bytes.length)).toBe(ok);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("numberFromBytes", () => {
  it("is JSON.parse of any JSON number text (integers summed exactly, -0 kept, long and fractional ones through Number)", () => {
    const text = fc.oneof(
      fc.integer().map(String),
      fc.bigInt({ min: -(10n ** 22n), max: 10n ** 22n }).map(String),
      fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
      fc.constantFrom("-0", "0", "999999999999999", "9999999999999999", "1e400", "-1E-7", "12.50"),
    );
    fc.assert(
      fc.property(text, (t) => {
        expect(Object.is(numberFromBytes(Buffer.from(t) as SliceableBuffer, 0, t.length), JSON.parse(t))).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });
});
