// The body cache's LRU against a plain reference model (an array in use order).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ByteBoundedLru } from "../../../src/core/session/bytes/byte-bounded-lru.js";

type Op = { get: number } | { set: number; bytes: number };
const op: fc.Arbitrary<Op> = fc.oneof(fc.record({ get: fc.nat({ max: 12 }) }), fc.record({ set: fc.nat({ max: 12 }), bytes: fc.integer({ min: 0, max: 40 }) }));

describe("ByteBoundedLru", () => {
  it("holds what a use-ordered list bounded by bytes holds, and evicts least recently used first", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), fc.array(op, { maxLength: 80 }), (max, ops) => {
        const lru = new ByteBoundedLru<string>(max);
        let model: { key: number; value: string; bytes: number }[] = [];
        ops.forEach((o, i) => {
          if ("get" in o) {
            const at = model.findIndex((m) => m.key === o.get);
            const hit = at >= 0 ? model.splice(at, 1)[0]! : undefined;
            if (hit) model.push(hit);
            expect(lru.get(o.get)).toBe(hit?.value);
          } else {
            model = model.filter((m) => m.key !== o.set);
            model.push({ key: o.set, value: `v${i}`, bytes: o.bytes });
            while (model.reduce((n, m) => n + m.bytes, 0) > max) model.shift();
            lru.set(o.set, `v${i}`, o.bytes);
          }
          expect(lru.size).toBe(model.length);
          expect(lru.heldBytes).toBe(model.reduce((n, m) => n + m.bytes, 0));
        });
        for (const m of model) expect(lru.get(m.key)).toBe(m.value);
      }),
      { numRuns: 500 },
    );
  });
});
