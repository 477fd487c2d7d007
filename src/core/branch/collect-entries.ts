// pi's collectEntriesForBranchSummary (branch-summarization.js): the entries
// abandoned when moving from `oldLeafId` to `targetId`, oldest first, back to
// (not including) their common ancestor. Cycle-safe: pi loops forever when a
// parentId cycle never reaches the ancestor; here the walk stops at the first
// repeated entry.

import type { SessionEntry } from "../session/format/types.js";
import { indexEntriesById, walkToRoot, type EntriesById } from "../context/path-walk.js";
import { findCommonAncestor } from "./common-ancestor.js";

/** The two lookups pi takes from its SessionManager. */
export interface BranchSource {
  /** Root→entry path (empty for an unknown id). */
  getBranch(id: string): SessionEntry[];
  getEntry(id: string): SessionEntry | undefined;
}

export interface BranchEntries {
  entries: SessionEntry[];
  commonAncestorId: string | null;
}

export function branchSourceFromEntries(entries: readonly SessionEntry[], byId?: EntriesById): BranchSource {
  const index = byId ?? indexEntriesById(entries);
  return {
    getBranch: (id) => walkToRoot(index.get(id), index).path,
    getEntry: (id) => index.get(id),
  };
}

/** Adapter for the session reader (LoadedSession: pathTo + entry), without importing it. */
export function branchSourceFromSession(session: {
  pathTo(leafId: string): SessionEntry[];
  entry(id: string): SessionEntry | undefined;
}): BranchSource {
  return { getBranch: (id) => session.pathTo(id), getEntry: (id) => session.entry(id) };
}

export function collectEntriesForBranchSummary(
  source: BranchSource,
  oldLeafId: string | null,
  targetId: string,
): BranchEntries {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const commonAncestorId = findCommonAncestor(source.getBranch(oldLeafId), source.getBranch(targetId));
  const reversed: SessionEntry[] = [];
  const seen = new Set<SessionEntry>();
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId) {
    const entry = source.getEntry(current);
    if (!entry || seen.has(entry)) break;
    seen.add(entry);
    reversed.push(entry);
    current = entry.parentId;
  }
  return { entries: reversed.reverse(), commonAncestorId };
}
