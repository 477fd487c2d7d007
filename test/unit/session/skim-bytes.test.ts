// The byte searches and strings the pi-layout skim reads a line with, against
// the native routes they stand in for (Buffer.lastIndexOf on the window,
// latin1Slice): on bytes dense in pieces of the needles (so near-misses,
// adjacent and overlapping candidates, and matches at the window's edges
// are common) and at every window start and end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SliceableBuffer } from "../../../src/core/session/scanned-values.js";
import { asciiText, cursor, keyAt, lastIndexIn, pairStarts, tailKeyAt } from "../../../src/core/session/skim-bytes.js";

const needles = ['"usage":', '"timestamp":'].map((text) => ({ text, bytes: Buffer.from(text), pairs: pairStarts(Buffer.from(text)) }));
const piece = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('"usage":', '"timestamp":', '"usage"', 'usage":', '"time', 'stamp":', '""usage":', '":', '"u', "ti", "me", "\\", '"', ":", "x", "e", '"usage":"usage":') },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const bytes = fc.array(piece, { maxLength: 40 }).map((parts) => Buffer.from(parts.join("")));

describe("lastIndexIn", () => {
  it("finds what lastIndexOf finds in the window, for every window of bytes dense in needle pieces", () => {
    fc.assert(
      fc.property(bytes, fc.nat(), fc.nat(), (b, x, y) => {
        const from = b.length === 0 ? 0 : x % (b.length + 1);
        const to = from + (b.length - from === 0 ? 0 : y % (b.length - from + 1));
        for (const n of needles) {
          const native = b.subarray(from, to).lastIndexOf(n.bytes);
          expect(lastIndexIn(b, n.bytes, n.pairs, from, to)).toBe(native >= 0 ? from + native : -1);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("finds a needle at the window's first and last byte and not one crossing either edge", () => {
    for (const n of needles) {
      const b = Buffer.from(`x${n.text}y${n.text}z`);
      const first = 1;
      const second = n.text.length + 2;
      expect(lastIndexIn(b, n.bytes, n.pairs, 0, b.length)).toBe(second);
      expect(lastIndexIn(b, n.bytes, n.pairs, first, second + n.text.length)).toBe(second);
      expect(lastIndexIn(b, n.bytes, n.pairs, first, second + n.text.length - 1)).toBe(first);
      expect(lastIndexIn(b, n.bytes, n.pairs, first + 1, second + n.text.length - 1)).toBe(-1);
    }
  });

  it("refuses a needle it cannot search this way (a repeated pair, or a border)", () => {
    expect(() => pairStarts(Buffer.from("abab"))).toThrow();
    expect(() => pairStarts(Buffer.from("aXa"))).toThrow();
  });
});

describe("asciiText", () => {
  it("is latin1Slice of the bytes, for ids of pi's 8 characters and any other length", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }), fc.nat(3), (s, pad) => {
        const b = Buffer.from(`${"-".repeat(pad)}${s}--`, "latin1") as SliceableBuffer;
        expect(asciiText(b, pad, pad + s.length)).toBe(s);
      }),
      { numRuns: 500 },
    );
  });
});

describe("tailKeyAt", () => {
  it("is keyAt (the key and where it ends) for pi's tail keys, their near-misses and any other key, cut anywhere", () => {
    const key = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('"timestamp":', '"usage":', '"stopReason":', '"isError":', '"id":', '"parentId":', '"input":', '"content":') },
      { weight: 2, arbitrary: fc.constantFrom('"timestamp"', '"timestamps":', '"usage" :', '"id":', '"i":', '"idx":', '"isErr":', '"parent":', '"stop":', '"t":', '"u\\u0073age":', '"p":', '"":') },
      { weight: 1, arbitrary: fc.string({ maxLength: 12 }).map((s) => `"${s}":`) },
    );
    fc.assert(
      fc.property(key, fc.string({ maxLength: 4 }), fc.nat(), (k, after, cut) => {
        const b = Buffer.from(k + after);
        const end = b.length - (cut % (b.length + 1));
        cursor.after = -7;
        const expected = keyAt(b, 0, end);
        const expectedAfter = cursor.after;
        cursor.after = -7;
        expect(tailKeyAt(b, 0, end)).toBe(expected);
        expect(cursor.after).toBe(expectedAfter);
      }),
      { numRuns: 3000 },
    );
  });
});
