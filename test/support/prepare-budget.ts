// Random amounts of LiveSessionFacts.prepareAhead for property tests: the work
// built ahead in the background may have run not at all, partly (any number of
// chunks, chunks of one entry or many) or fully when pi's next write arrives.
import fc from "fast-check";
import type { LiveSessionFacts } from "../../src/core/live/live-facts.js";

export interface PrepareBudget {
  /** Chunks prepareAhead may run (Infinity: to the end). */
  chunks: number;
  /** Its chunk size in line bytes (1: one entry per chunk). */
  chunkBytes: number;
}

export const prepareBudget: fc.Arbitrary<PrepareBudget> = fc.record({
  chunks: fc.oneof(fc.constant(0), fc.nat({ max: 6 }), fc.constant(Number.POSITIVE_INFINITY)),
  chunkBytes: fc.constantFrom(1, 150, 600, 1 << 20),
});

/** Runs prepareAhead within the budget; returns what it returned. */
export function prepareWithin(live: LiveSessionFacts, budget: PrepareBudget): boolean {
  let asked = 0;
  return live.prepareAhead(() => asked++ >= budget.chunks, budget.chunkBytes);
}
