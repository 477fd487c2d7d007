// isoMillisAt (a timestamp's ms straight from a line's bytes, remembering the
// last valid date it read) against isoMillis of the same 24 characters, over
// sequences of timestamps that share dates, differ in one byte, or are not
// timestamps at all: what it remembers never changes an answer.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoMillis, isoMillisAt } from "../../../src/core/session/skim/iso-millis.js";

const valid = fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }).map((t) => new Date(t).toISOString());
const sameDay = fc.tuple(fc.constantFrom("2024-02-29", "2025-11-20", "1999-12-31", "2023-02-28"), fc.integer({ min: 0, max: 86_399_999 })).map(([day, ms]) => new Date(Date.parse(`${day}T00:00:00.000Z`) + ms).toISOString());
const oneByteOff = fc
  .tuple(fc.constantFrom("2024-02-29T23:59:59.999Z", "2025-11-20T10:00:00.000Z", "2023-02-28T12:30:00.500Z"), fc.integer({ min: 0, max: 23 }), fc.constantFrom(..."0123456789-:.TZ x\u00e9"))
  .map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1));
const stamp = fc.oneof({ weight: 3, arbitrary: sameDay }, { weight: 2, arbitrary: valid }, { weight: 3, arbitrary: oneByteOff }, { weight: 1, arbitrary: fc.string({ minLength: 24, maxLength: 24 }) });

describe("isoMillisAt", () => {
  it("is isoMillis of the 24 bytes at each position, line after line", () => {
    fc.assert(
      fc.property(fc.array(stamp, { minLength: 1, maxLength: 12 }), fc.nat(5), (stamps, pad) => {
        for (const s of stamps) {
          const b = Buffer.from(`${" ".repeat(pad)}${s}"`, "latin1");
          const expected = Buffer.from(s, "latin1").length === 24 ? isoMillis(Buffer.from(s, "latin1").toString("latin1")) : Number.NaN;
          expect(isoMillisAt(b, pad)).toBe(expected);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a date again after an invalid one with the same date and a bad time", () => {
    const at = (s: string) => isoMillisAt(Buffer.from(s, "latin1"), 0);
    expect(at("2024-02-29T10:00:00.000Z")).toBe(Date.parse("2024-02-29T10:00:00.000Z"));
    expect(at("2024-02-29T24:00:00.000Z")).toBeNaN();
    expect(at("2024-02-30T10:00:00.000Z")).toBeNaN();
    expect(at("2024-02-29T10:00:01.000Z")).toBe(Date.parse("2024-02-29T10:00:01.000Z"));
  });
});
