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
 * index's (a later duplicate id wins, as in pi's byId). Walked over entry
 * positions (no meta made, no map of ids): a 100 MB branch in a few ms.
 */
export function ancestorCycle(index: Pick<SessionIndex, "positionOf" | "parentPositionOf" | "idAt" | "size">, id: string): string[] | null {
  let current = index.positionOf(id);
  if (current < 0) return null;
  // Where on the walk each position was met (+1; 0 = not yet).
  const metAt = new Int32Array(index.size);
  const walk: number[] = [];
  while (current >= 0) {
    const at = metAt[current]!;
    if (at > 0) return walk.slice(at - 1).map((i) => index.idAt(i));
    walk.push(current);
    metAt[current] = walk.length;
    current = index.parentPositionOf(current);
  }
  return null;
}

/** One line for a refusal: which entry, which cycle, why. */
export function describeAncestorCycle(parentId: string, cycle: readonly string[]): string {
  const ring = cycle.length === 1 ? `${cycle[0]} is its own parent` : `${[...cycle, cycle[0]].join(" → ")}`;
  return `entry ${parentId} is its own ancestor (parentId cycle: ${ring}); a new entry under it would be on the cycle and pi would loop forever resuming it`;
}
