// Random junk in place of an entry's fields (never its id, parentId or type:
// the reader only hands on objects with a string type and id, else the line is
// reported and skipped). For tests that feed the core damaged pi sessions.
import type { SeededRandom } from "./seeded-random.js";

export const JUNK: unknown[] = [null, 0, -1, "", "x", [], [null], {}, { type: "text" }, true, [{ type: "image" }], { replacement: 1 }];

export function mutate(value: unknown, rng: SeededRandom, depth: number): unknown {
  if (depth > 0 && rng.chance(0.08)) return rng.pick(JUNK);
  if (depth > 4 || typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map((v) => mutate(v, rng, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (depth === 0 && (k === "id" || k === "parentId" || k === "type")) out[k] = v;
    else if (!rng.chance(0.04)) out[k] = mutate(v, rng, depth + 1);
  }
  return out;
}
