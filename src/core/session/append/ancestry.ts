// Whether an entry's path to a root is a simple chain. pi walks parentId
// from the leaf until a falsy parent or one it does not know (getBranch,
// buildSessionContext), with no visited set: if an entry is its own ancestor
// (a parentId cycle, a self-parent included) pi never returns from that walk
// on resume. A leaf we append under such an entry would be on the cycle too,
// so every writer refuses it (planAppend calls this for each append).

import type { SessionIndex } from "../index/session-index.js";

/**
 * The cycle met when walking up from `id` (ids in walk order, the repeated
 * entry first), or null when the walk reaches a root. The lookup is the
 * index's (a later duplicate id wins, as in pi's byId).
 */
export function ancestorCycle(index: Pick<SessionIndex, "get">, id: string): string[] | null {
  const seen = new Map<string, number>();
  const walk: string[] = [];
  let current = index.get(id);
  while (current) {
    const at = seen.get(current.id);
    if (at !== undefined) return walk.slice(at);
    seen.set(current.id, walk.length);
    walk.push(current.id);
    current = current.parentId ? index.get(current.parentId) : undefined;
  }
  return null;
}

/** One line for a refusal: which entry, which cycle, why. */
export function describeAncestorCycle(parentId: string, cycle: readonly string[]): string {
  const ring = cycle.length === 1 ? `${cycle[0]} is its own parent` : `${[...cycle, cycle[0]].join(" → ")}`;
  return `entry ${parentId} is its own ancestor (parentId cycle: ${ring}); a new entry under it would be on the cycle and pi would loop forever resuming it`;
}
