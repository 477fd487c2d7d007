// The slot of an entry's timestamp read without a Date.parse per entry equals
// the slot of Date.parse of it, for pi's form and anything else (a day read
// once and remembered must never leak into another day).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SLOT_MS, slotOfMillis, slotOfTimestamp } from "../../../src/core/catalogue/spend-slots.js";

const expected = (t: string) => slotOfMillis(Date.parse(t));

describe("slotOfTimestamp", () => {
  it("equals Date.parse's slot on pi's timestamps, days in any order, and on near-misses", () => {
    const iso = fc.date({ min: new Date("1970-01-02T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }).map((d) => d.toISOString());
    const pad = (n: number, w = 2) => String(n).padStart(w, "0");
    const nearMiss = fc
      .record({ y: fc.integer({ min: 1999, max: 2031 }), mo: fc.integer({ min: 0, max: 13 }), d: fc.integer({ min: 0, max: 32 }), h: fc.integer({ min: 0, max: 25 }), mi: fc.integer({ min: 0, max: 61 }), s: fc.integer({ min: 0, max: 61 }), ms: fc.integer({ min: 0, max: 999 }), z: fc.constantFrom("Z", "+", "z") })
      .map((p) => `${p.y}-${pad(p.mo)}-${pad(p.d)}T${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}.${pad(p.ms, 3)}${p.z}`);
    const junk = fc.oneof(fc.string(), fc.constantFrom("", "2026-03-29", "2026-03-29T02:30:00Z", "2026-03-29T02:30:00.000+01:00", "2026-13-01T00:00:00.000Z"));
    fc.assert(
      fc.property(fc.array(fc.oneof(iso, nearMiss, junk), { minLength: 1, maxLength: 20 }), (stamps) => {
        for (const t of stamps) expect(slotOfTimestamp(t), t).toBe(expected(t));
      }),
      { numRuns: 3000 },
    );
  });

  it("quarter hours: the slot's start is a multiple of 15 minutes of UTC", () => {
    expect(slotOfTimestamp("2026-03-29T01:14:59.999Z") * SLOT_MS).toBe(Date.parse("2026-03-29T01:00:00.000Z"));
    expect(slotOfTimestamp("2026-03-29T01:15:00.000Z") * SLOT_MS).toBe(Date.parse("2026-03-29T01:15:00.000Z"));
  });
});
