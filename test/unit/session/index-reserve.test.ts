// Room reserved ahead in the index (a reader's estimate from the file's size)
// changes nothing the index answers: entries, lookups, duplicates and
// diagnostics are those of an index that grew entry by entry, also when the
// reservation is too small, too large, or made part-way; and a read that
// reserves reads the same index as one that does not.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { JsonlReader } from "../../../src/core/session/bytes/jsonl-reader.js";
import { SessionBuilder } from "../../../src/core/session/index/session-builder.js";
import { SessionIndex } from "../../../src/core/session/index/session-index.js";

const IDS = Array.from({ length: 3000 }, (_, i) => `id${i.toString(36)}`);
const record = fc.record({ id: fc.oneof({ weight: 9, arbitrary: fc.nat(IDS.length - 1) }, { weight: 1, arbitrary: fc.nat(5) }), parent: fc.option(fc.nat(IDS.length - 1)) });

function indexOf(records: { id: number; parent: number | null }[], reserveAt: number, reserve: number): SessionIndex {
  const index = new SessionIndex();
  records.forEach((r, i) => {
    if (i === reserveAt) index.reserve(reserve);
    index.addRecord({ line: i + 2, offset: i * 10, length: 9, type: "custom", id: IDS[r.id]!, parentId: r.parent === null ? null : IDS[r.parent]!, timestamp: "2025-01-01T00:00:00.000Z", role: undefined, activityTime: Number.NaN, spend: undefined, rare: undefined });
  });
  return index;
}

function answers(index: SessionIndex): unknown {
  return { entries: index.entries, diagnostics: index.diagnostics, duplicates: index.duplicateCount, found: IDS.map((id) => index.get(id)?.index ?? -1) };
}

describe("SessionIndex.reserve", () => {
  it("answers as an index that grew entry by entry (reserved early, late, too little or too much)", () => {
    fc.assert(
      fc.property(fc.array(record, { maxLength: 2500 }), fc.nat(2500), fc.oneof(fc.nat(100), fc.nat(5000), fc.constant(70_000)), (records, reserveAt, reserve) => {
        expect(answers(indexOf(records, reserveAt, reserve))).toEqual(answers(indexOf(records, -1, 0)));
      }),
      { numRuns: 60 },
    );
  });
});

describe("SessionBuilder fileBytes", () => {
  const header = JSON.stringify({ type: "session", version: 3, id: "h", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" });
  const line = (i: number, pad: number) =>
    JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: "2025-01-01T00:00:00.000Z", message: { role: "user", content: "x".repeat(pad), timestamp: 1 } });
  /** Short lines first, long ones after (the estimate from the first lines is far too low), then short again. */
  const text = [header, ...Array.from({ length: 6000 }, (_, i) => line(i, i < 4500 ? 1 : i < 5500 ? 2000 : 1))].join("\n") + "\n";
  const bytes = Buffer.from(text);

  function read(fileBytes: number | undefined, skim: boolean): SessionIndex {
    const builder = new SessionBuilder(undefined, { skim, fileBytes });
    const reader = new JsonlReader((l) => builder.line(l));
    for (let at = 0; at < bytes.length; at += 65536) reader.push(bytes.subarray(at, at + 65536));
    return builder.finish(reader.end()).index;
  }

  it("reads the same index with a size hint (right, too small, far too large) as without", () => {
    for (const skim of [true, false]) {
      const plain = answers(read(undefined, skim));
      for (const hint of [bytes.length, 100, bytes.length * 1000]) expect(answers(read(hint, skim))).toEqual(plain);
    }
  });

  it("reserves for the rest of the file at the rate read so far, and never more than 64 times the entries read", () => {
    const capacity = (index: SessionIndex) => (index as unknown as { columns: { lines: Float64Array } }).columns.lines.length;
    expect(capacity(read(bytes.length * 1000, true))).toBeLessThanOrEqual(4096 * 65);
    // The first 4096 lines are short: the estimate is well above the 6000 entries, not a doubling from 4096.
    expect(capacity(read(bytes.length, true))).toBeGreaterThan(8192);
  });
});
