// Walking parentId links from a leaf to its root, as pi's getBranch and
// buildSessionContext do, but cycle-safe: pi loops forever on a parentId cycle
// (or duplicate ids forming one); here the walk stops at the first entry it
// has already seen.

import type { SessionEntry } from "../session/format/types.js";

export type EntriesById = ReadonlyMap<string, SessionEntry>;

/** pi's id index: the later entry wins when ids repeat. */
export function indexEntriesById(entries: readonly SessionEntry[]): Map<string, SessionEntry> {
  const byId = new Map<string, SessionEntry>();
  for (const entry of entries) {
    if (entry && typeof entry === "object") byId.set(entry.id, entry);
  }
  return byId;
}

export interface RootPath {
  /** Root first, leaf last. */
  path: SessionEntry[];
  /** True when the walk stopped because a parentId led back into the path. */
  cycle: boolean;
}

export function walkToRoot(leaf: SessionEntry | undefined, byId: EntriesById): RootPath {
  const reversed: SessionEntry[] = [];
  const seen = new Set<SessionEntry>();
  let current = leaf;
  let cycle = false;
  while (current) {
    if (seen.has(current)) {
      cycle = true;
      break;
    }
    seen.add(current);
    reversed.push(current);
    const parentId = current.parentId;
    current = parentId ? byId.get(parentId) : undefined;
  }
  return { path: reversed.reverse(), cycle };
}

/** Root→leaf entries of the branch ending at `leafId` (empty when unknown). */
export function branchPath(leafId: string | null | undefined, byId: EntriesById): SessionEntry[] {
  if (!leafId) return [];
  return walkToRoot(byId.get(leafId), byId).path;
}
