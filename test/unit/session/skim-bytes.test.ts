// The byte searches and strings the pi-layout skim reads a line with, against
// the native routes they stand in for (Buffer.lastIndexOf on the window,
// latin1Slice): on bytes dense in pieces of the needles (so near-misses,
// adjacent and overlapping candidates, and matches at the window's edges
// are common) and at every window start and end.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { SliceableBuffer } from "../../../src/core/session/scan/scanned-values.js";
import { asciiText, cursor, keyAt, lastIndexIn, literal, matches, pairStarts, tailKeyAt } from "../../../src/core/session/skim/skim-bytes.js";

const needles = ['"usage":', '"timestamp":'].map((text) => ({ text, bytes: literal(text), pairs: pairStarts(Buffer.from(text)) }));
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
          const native = b.subarray(from, to).lastIndexOf(n.text);
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

describe("matches", () => {
  /** The byte-by-byte comparison it stands in for. */
  const reference = (b: Uint8Array, p: number, word: Uint8Array): boolean => p >= 0 && p + word.length <= b.length && word.every((c, i) => b[p + i] === c);

  it("is a byte-by-byte comparison, at every position (before, inside and past the buffer), for words of every length, in views at any offset", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 13 }), bytes, fc.nat(7), fc.integer({ min: -3, max: 60 }), (text, body, pad, p) => {
        const word = literal(text);
        // The word sometimes placed at p, in a view that starts `pad` bytes into its ArrayBuffer.
        const whole = Buffer.concat([Buffer.alloc(pad, 0x2e), body, Buffer.from(text), body]);
        const b = whole.subarray(pad);
        expect(matches(b, p, word)).toBe(reference(b, p, word.bytes));
        const at = body.length;
        expect(matches(b, at, word)).toBe(true);
        // Another buffer with other bytes at the same positions: the view of the last one is not reused.
        const other = Buffer.from(b.map((c) => c ^ 0x01));
        expect(matches(other, at, word)).toBe(reference(other, at, word.bytes));
        expect(matches(b, at, word)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("reads a buffer of one very long line (not kept between calls) as any other", () => {
    const word = literal('"timestamp":');
    const big = Buffer.alloc(5 * 1024 * 1024, 0x20);
    big.write('"timestamp":', big.length - 20, "latin1");
    const small = Buffer.from('x"timestamp":');
    for (const [b, at] of [[big, big.length - 20], [small, 1], [big, big.length - 20], [big, 3]] as const) expect(matches(b, at, word)).toBe(reference(b, at, word.bytes));
  });

  it("tells words that differ in one byte at any place of a 4-byte group", () => {
    const text = '"cacheWrite":';
    for (let k = 0; k < text.length; k++) {
      const b = Buffer.from(text);
      b[k] = b[k]! + 1;
      expect(matches(b, 0, literal(text))).toBe(false);
    }
    expect(matches(Buffer.from(text), 0, literal(text))).toBe(true);
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
