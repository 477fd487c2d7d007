// pi 1.5.2's combineUsage (usage-totals.js): the usage of a split-turn
// compaction is the history call's plus the turn-prefix call's.

import type { Usage } from "@mariozechner/pi-ai";

type UsageIn = Usage & { cacheWrite1h?: number; reasoning?: number; cost: Usage["cost"] & { totalFromProvider?: boolean } };

export function combineUsage(first: UsageIn, second: UsageIn): Usage {
  return {
    input: first.input + second.input,
    output: first.output + second.output,
    cacheRead: first.cacheRead + second.cacheRead,
    cacheWrite: first.cacheWrite + second.cacheWrite,
    ...(first.cacheWrite1h !== undefined || second.cacheWrite1h !== undefined ? { cacheWrite1h: (first.cacheWrite1h ?? 0) + (second.cacheWrite1h ?? 0) } : {}),
    ...(first.reasoning !== undefined || second.reasoning !== undefined ? { reasoning: (first.reasoning ?? 0) + (second.reasoning ?? 0) } : {}),
    totalTokens: first.totalTokens + second.totalTokens,
    cost: {
      input: first.cost.input + second.cost.input,
      output: first.cost.output + second.cost.output,
      cacheRead: first.cost.cacheRead + second.cost.cacheRead,
      cacheWrite: first.cost.cacheWrite + second.cost.cacheWrite,
      total: first.cost.total + second.cost.total,
      // A sum is provider-reported only when every part is.
      totalFromProvider: first.cost.totalFromProvider === true && second.cost.totalFromProvider === true,
    },
  } as Usage;
}
