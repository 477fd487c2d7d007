// Token helpers against pi's exported ones, on a grid of values.

import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { calculateContextTokens } from "../../../src/core/tokens/context-tokens.js";
import { shouldCompact } from "../../../src/core/tokens/should-compact.js";
import { loadPiOracle, type PiOracle } from "../../support/pi-oracle.js";
import * as piRoot from "@mariozechner/pi-coding-agent";

let pi: PiOracle;
beforeAll(async () => {
  pi = await loadPiOracle();
});

const count = fc.integer({ min: 0, max: 300_000 });

describe("token helpers equal pi", () => {
  it("calculateContextTokens: totalTokens, else the sum of the parts", () => {
    fc.assert(
      fc.property(count, count, count, count, fc.oneof(fc.constant(0), count), (input, output, cacheRead, cacheWrite, totalTokens) => {
        const usage = { input, output, cacheRead, cacheWrite, totalTokens };
        expect(calculateContextTokens(usage)).toBe(pi.calculateContextTokens(usage));
      }),
    );
  });

  it("shouldCompact: enabled and above window − reserve", () => {
    fc.assert(
      fc.property(count, count, count, fc.boolean(), (tokens, window, reserveTokens, enabled) => {
        const settings = { enabled, reserveTokens, keepRecentTokens: 20000 };
        expect(shouldCompact(tokens, window, settings)).toBe(piRoot.shouldCompact(tokens, window, settings));
      }),
    );
    // The boundary itself, by the rule: strictly greater.
    expect(shouldCompact(111616, 128000, { enabled: true, reserveTokens: 16384 })).toBe(false);
    expect(shouldCompact(111617, 128000, { enabled: true, reserveTokens: 16384 })).toBe(true);
  });
});
