// A new entry must hang below an entry whose path to a root is a simple chain.
// pi walks parentId links without a visited set (getBranch, buildSessionContext),
// so a leaf on or below a parent cycle (a self-parent included) makes pi loop
// forever when it resumes: every writer refuses to create one.

import { WriteRefusedError } from "./append.js";
import type { SessionIndex } from "./session-index.js";

/** The id of the entry where the walk from `id` to a root meets itself, or undefined for a simple chain. */
export function cycleOnPathTo(index: SessionIndex, id: string): string | undefined {
  const seen = new Set<string>();
  let current = index.get(id);
  while (current) {
    if (seen.has(current.id)) return current.id;
    seen.add(current.id);
    if (current.parentId === null) return undefined;
    current = index.get(current.parentId);
  }
  return undefined;
}

/** Throws WriteRefusedError ("parent-cycle") when `parentId`'s path to a root is not a simple chain. */
export function assertSimpleChain(index: SessionIndex, parentId: string | null, path: string | undefined): void {
  if (parentId === null) return;
  const repeated = cycleOnPathTo(index, parentId);
  if (repeated === undefined) return;
  throw new WriteRefusedError(
    "parent-cycle",
    `${path ?? "session"}: entry ${parentId} is on or below a parent cycle (at ${repeated}); pi would loop forever on a new entry there. Nothing was written: pick an entry a root reaches.`,
    path,
  );
}
