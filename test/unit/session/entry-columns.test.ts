// The index keeps entries as columns and makes metas on demand: a meta must
// come back exactly as it went in (timestamps kept as ms only when
// toISOString writes them back the same, parents as positions or text).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EntryColumns, isoMillis } from "../../../src/core/session/index/entry-columns.js";
import { SkimmedEntry, skimPiLayout } from "../../../src/core/session/skim/pi-layout-skimmer.js";
import type { SliceableBuffer } from "../../../src/core/session/scan/scanned-values.js";
import { asciiText } from "../../../src/core/session/skim/skim-bytes.js";
import type { EntryMeta } from "../../../src/core/session/format/entry-meta.js";
import { SessionIndex } from "../../../src/core/session/index/session-index.js";

describe("isoMillis", () => {
  it("is Date's ms for every timestamp toISOString writes (years 1000–9999)", () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (t) => {
        expect(isoMillis(new Date(t).toISOString())).toBe(t);
      }),
      { numRuns: 5000 },
    );
  });

  it("gives NaN for anything toISOString would not write back the same", () => {
    const near = fc
      .tuple(fc.integer({ min: 0, max: 23 }), fc.string({ minLength: 1, maxLength: 1, unit: fc.constantFrom(..."0123456789-:.TZ x") }))
      .map(([i, c]) => {
        const s = "2024-02-29T23:59:59.999Z";
        return s.slice(0, i) + c + s.slice(i + 1);
      });
    const odd = fc.oneof(near, fc.string(), fc.constantFrom("2023-02-29T00:00:00.000Z", "2025-04-31T00:00:00.000Z", "0999-12-31T00:00:00.000Z", "2025-01-01T24:00:00.000Z", "2025-01-01"));
    fc.assert(
      fc.property(odd, (s) => {
        const ms = isoMillis(s);
        if (!Number.isNaN(ms)) expect(new Date(ms).toISOString()).toBe(s);
      }),
      { numRuns: 5000 },
    );
    expect(isoMillis("2023-02-29T00:00:00.000Z")).toBeNaN();
  });
});

describe("SessionIndex columns", () => {
  const timestamp = fc.oneof(fc.integer({ min: 0, max: 4e12 }).map((t) => new Date(t).toISOString()), fc.constantFrom("", "2025-01-01", "x", "2023-02-29T00:00:00.000Z"));
  const spend = fc.record({ input: fc.nat(), output: fc.nat(), cacheRead: fc.nat(), cacheWrite: fc.nat(), cost: fc.double({ noNaN: true, noDefaultInfinity: true }) });
  const entry = fc.record(
    {
      type: fc.constantFrom("message", "label", "session_info", "custom", "odd_type"),
      id: fc.constantFrom("a", "b", "c", "d", "", "é", "ā", "😀x"),
      parentId: fc.constantFrom("a", "b", "zz", "", "ā", "é", null),
      timestamp,
      timestampValue: fc.constantFrom(5, null, [1]),
      role: fc.constantFrom("user", "assistant"),
      targetId: fc.constantFrom("a", "q"),
      label: fc.constantFrom("L", ""),
      name: fc.constantFrom("n"),
      activityTime: fc.integer({ min: -5, max: 4e12 }),
      spend,
    },
    { requiredKeys: ["type", "id", "parentId", "timestamp"] },
  );

  it("gives back each meta as it was added (duplicates, dangling parents, odd timestamps, rare fields)", () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 12 }), (entries) => {
        const metas: EntryMeta[] = entries.map((e, i) => ({ line: i + 2, offset: i * 10, length: 9, index: i, ...e }));
        // Half first, all metas made, then the rest appended (entries makes only the newer ones).
        const half = Math.floor(metas.length / 2);
        const index = new SessionIndex(metas.slice(0, half));
        expect(index.entries).toEqual(metas.slice(0, half));
        for (const m of metas.slice(half)) index.add(m);
        expect(index.entries).toEqual(metas);
        expect(index.size).toBe(metas.length);
        for (let i = 0; i < metas.length; i++) {
          expect(index.at(i)).toEqual(metas[i]);
          expect(index.at(i)).toBe(index.at(i));
          expect(index.typeAt(i)).toBe(metas[i]!.type);
          expect(index.idAt(i)).toBe(metas[i]!.id);
          expect(index.roleAt(i)).toBe(metas[i]!.role);
        }
        for (const m of metas) expect(index.get(m.id)).toEqual([...metas].reverse().find((x) => x.id === m.id));
        expect(index.get("nope")).toBeUndefined();
        expect([...index.byId.keys()]).toEqual([...new Map(metas.map((m) => [m.id, m])).keys()]);
      }),
      { numRuns: 500 },
    );
  });
});

describe("EntryColumns.pushSkimmed", () => {
  const lineOf = (i: number, stamp: string) => `{"type":"thinking_level_change","id":"${(i + 10).toString(16).padStart(8, "0")}","parentId":null,"timestamp":"${stamp}","thinkingLevel":"low"}`;

  it("keeps each skimmed timestamp's 24 characters, in columns it grew and in columns taken over with room to spare", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), { minLength: 1, maxLength: 40 }), fc.nat(5), (times, pad) => {
        const stamps = times.map((t) => new Date(t).toISOString());
        const grown = new EntryColumns();
        // A state whose arrays have room for every entry (no grow): pushSkimmed writes into them as they are.
        const state = new EntryColumns().exportState();
        const room = times.length + pad;
        const spare = EntryColumns.fromState({
          ...state,
          parents: new Int32Array(room),
          times: new Float64Array(room),
          stamps: new Uint8Array(room * 24 + 1).subarray(1),
          lines: new Float64Array(room),
          offsets: new Float64Array(room),
          lengths: new Float64Array(room),
          activity: new Float64Array(room),
          spends: new Float64Array(room * 5),
          flags: new Uint8Array(room),
        });
        stamps.forEach((stamp, i) => {
          const text = `  ${lineOf(i, stamp)}`;
          const b = Buffer.from(text) as SliceableBuffer;
          const m = new SkimmedEntry();
          expect(skimPiLayout(b, 2, b.length, m)).toBe(true);
          for (const c of [grown, spare]) c.pushSkimmed(m, b, asciiText(b, m.idStart, m.idEnd), -1, undefined, i + 1, 2, b.length - 2);
        });
        stamps.forEach((stamp, i) => {
          expect(grown.timestamp(i)).toBe(stamp);
          expect(spare.timestamp(i)).toBe(stamp);
        });
      }),
      { numRuns: 200 },
    );
  });
});
