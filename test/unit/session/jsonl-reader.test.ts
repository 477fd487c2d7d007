import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectLines, JsonlReader, type JsonlLine } from "../../../src/core/session/bytes/jsonl-reader.js";

const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array): string => Buffer.from(b).toString("utf8");

/** Splits `bytes` at the given cut points (any positions, even inside a UTF-8 sequence). */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const p of points) {
    chunks.push(bytes.subarray(from, p));
    from = p;
  }
  chunks.push(bytes.subarray(from));
  return chunks;
}

/** Pieces that exercise the splitter: line breaks of both kinds, BOMs, multi-byte characters. */
const piece = fc.oneof(
  fc.constantFrom("\n", "\r\n", "\r", "\ufeff", "é", "€", "𝄞", "{}", '{"a":1}', " ", ""),
  fc.string({ maxLength: 12 }),
);
const content = fc.array(piece, { maxLength: 30 }).map((ps) => utf8(ps.join("")));

describe("JSONL line reader", () => {
  it("gives the same lines for any split of the same bytes into chunks", () => {
    fc.assert(
      fc.property(content, fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        expect(collectLines(chunked(bytes, cuts))).toEqual(collectLines([bytes]));
      }),
      { numRuns: 3000 },
    );
  });

  it("splits exactly where the decoded text has \\n, dropping one \\r before it and a BOM at the start", () => {
    fc.assert(
      fc.property(content, (bytes) => {
        const { lines } = collectLines([bytes]);
        let expected = text(bytes).split("\n");
        if (expected[expected.length - 1] === "") expected = expected.slice(0, -1);
        expected = expected.map((l, i) => (i === 0 && l.startsWith("\ufeff") ? l.slice(1) : l)).map((l) => l.replace(/\r$/, ""));
        expect(lines.map((l) => text(l.text))).toEqual(expected);
        // Each line's own ending (the reader hands every line in one reused object).
        const raw = text(bytes).split("\n");
        lines.forEach((l, i) => {
          expect(l.crlf).toBe(raw[i]!.endsWith("\r"));
          expect(l.terminated).toBe(i < raw.length - 1);
        });
        // Offsets and lengths address the line's bytes in the input.
        for (const l of lines) expect(text(bytes.subarray(l.offset, l.offset + l.length))).toBe(text(l.text));
        lines.forEach((l, i) => expect(l.line).toBe(i + 1));
      }),
      { numRuns: 2000 },
    );
  });

  it("handles a BOM split over three chunks", () => {
    const bytes = utf8('\ufeff{"a":1}\n{"b":2}');
    const r = collectLines([bytes.subarray(0, 1), bytes.subarray(1, 2), bytes.subarray(2)]);
    expect(r.summary.bom).toBe(true);
    expect(r.lines.map((l) => [l.line, l.offset, text(l.text), l.terminated])).toEqual([
      [1, 3, '{"a":1}', true],
      [2, 11, '{"b":2}', false],
    ]);
    expect(r.summary.unterminatedTail).toBe(true);
    expect(r.summary.completeUpTo).toBe(11);
  });

  it("strips one \\r of CRLF and counts CRLF lines", () => {
    const r = collectLines([utf8("a\r\nb\r\r\nc\n")]);
    expect(r.lines.map((l) => text(l.text))).toEqual(["a", "b\r", "c"]);
    expect(r.summary.crlfLines).toBe(2);
  });

  it("gives no lines for an empty input and keeps blank lines (numbered)", () => {
    expect(collectLines([]).lines).toEqual([]);
    expect(collectLines([new Uint8Array(0)]).summary).toMatchObject({ bytesRead: 0, unterminatedTail: false });
    expect(collectLines([utf8("\n\nx\n")]).lines.map((l) => [l.line, text(l.text)])).toEqual([
      [1, ""],
      [2, ""],
      [3, "x"],
    ]);
  });

  it("reads a 30 MB line pushed in 64 KiB chunks as one line", () => {
    const size = 30 * 1024 * 1024;
    const bytes = new Uint8Array(size + 1).fill(0x61);
    bytes[size] = 0x0a;
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < bytes.length; i += 65536) chunks.push(bytes.subarray(i, i + 65536));
    const r = collectLines(chunks);
    expect(r.lines).toHaveLength(1);
    expect(r.lines[0]!.length).toBe(size);
  });

  it("hands a line sink object the lines a callback gets (same numbers, offsets, bytes, any chunking)", () => {
    const seen = (l: JsonlLine) => ({ line: l.line, offset: l.offset, length: l.length, text: text(l.bytes.subarray(l.start, l.start + l.length)), terminated: l.terminated, crlf: l.crlf });
    fc.assert(
      fc.property(content, fc.array(fc.nat(), { maxLength: 12 }), (bytes, cuts) => {
        const byCallback: unknown[] = [];
        const bySink: unknown[] = [];
        const callbackReader = new JsonlReader((l) => byCallback.push(seen(l)), 7, 3);
        const sinkReader = new JsonlReader({ line: (l: JsonlLine) => void bySink.push(seen(l)) }, 7, 3);
        for (const c of chunked(bytes, cuts)) {
          callbackReader.push(c);
          sinkReader.push(c);
        }
        expect(sinkReader.end()).toEqual(callbackReader.end());
        expect(bySink).toEqual(byCallback);
      }),
      { numRuns: 1000 },
    );
  });
});
