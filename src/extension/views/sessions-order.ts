// How the Sessions view orders, filters and threads its rows (no vscode):
// sort by last activity, cost, size, context tokens or name; filter to named
// sessions, sessions with a compaction, or sessions past pi's threshold; forks
// listed under the session their header's parentSession names.
import { basename } from "node:path";
import type { SessionFacts } from "../session-facts";

export type SessionSort = "activity" | "cost" | "size" | "tokens" | "name";
export type SessionFilter = "named" | "compacted" | "overThreshold";

export interface SessionsViewOptions {
  sort: SessionSort;
  filters: readonly SessionFilter[];
}

export const DEFAULT_VIEW_OPTIONS: SessionsViewOptions = { sort: "activity", filters: [] };

export const SESSION_SORTS: readonly { id: SessionSort; label: string }[] = [
  { id: "activity", label: "Last activity" },
  { id: "cost", label: "Cost" },
  { id: "size", label: "Size on disk" },
  { id: "tokens", label: "Context tokens" },
  { id: "name", label: "Name" },
];

export const SESSION_FILTERS: readonly { id: SessionFilter; label: string; detail: string }[] = [
  { id: "named", label: "Named only", detail: "Sessions with a name (pi's /name)" },
  { id: "compacted", label: "Has compactions", detail: "A compaction on the current branch" },
  { id: "overThreshold", label: "Over the threshold", detail: "Past pi's auto-compaction threshold" },
];

export function isSessionSort(value: unknown): value is SessionSort {
  return SESSION_SORTS.some((s) => s.id === value);
}

export function isSessionFilter(value: unknown): value is SessionFilter {
  return SESSION_FILTERS.some((f) => f.id === value);
}

function sortValue(sort: Exclude<SessionSort, "name">, facts: SessionFacts): number {
  switch (sort) {
    case "activity":
      return facts.lastActivity.getTime();
    case "cost":
      return facts.totals.cost;
    case "size":
      return facts.sizeBytes;
    case "tokens":
      return facts.usage.tokens;
  }
}

/** Order of two rows: the largest (newest) first, names A→Z; rows not read yet last; ties by path. */
export function compareSessions(sort: SessionSort, a: string, b: string, facts: (path: string) => SessionFacts | undefined): number {
  const fa = facts(a);
  const fb = facts(b);
  if (!fa || !fb) return fa ? -1 : fb ? 1 : a.localeCompare(b);
  if (sort === "name") return fa.title.localeCompare(fb.title, undefined, { sensitivity: "base" }) || a.localeCompare(b);
  return sortValue(sort, fb) - sortValue(sort, fa) || a.localeCompare(b);
}

/**
 * The first `limit` of `paths` in `compare`'s order (as `[...paths].sort(compare).slice(0, limit)`),
 * without sorting them all: a long group shows a page of rows, and a row that moves asks for it again.
 */
export function firstInOrder(paths: readonly string[], limit: number, compare: (a: string, b: string) => number): string[] {
  if (paths.length <= limit) return [...paths].sort(compare);
  const first: string[] = [];
  for (const path of paths) {
    if (first.length === limit && compare(path, first[limit - 1]!) >= 0) continue;
    let lo = 0;
    let hi = first.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (compare(first[mid]!, path) <= 0) lo = mid + 1;
      else hi = mid;
    }
    first.splice(lo, 0, path);
    if (first.length > limit) first.pop();
  }
  return first;
}

/** Whether a row passes every filter (a row not read yet passes only when there is none). */
export function passesFilters(filters: readonly SessionFilter[], facts: SessionFacts | undefined): boolean {
  if (filters.length === 0) return true;
  if (!facts) return false;
  return filters.every((filter) => {
    switch (filter) {
      case "named":
        return facts.name !== null && facts.name !== "";
      case "compacted":
        return facts.hasCompaction;
      case "overThreshold":
        return facts.wouldCompact;
    }
  });
}

export interface Threads {
  /** Sessions whose parent is not in the list. */
  top: string[];
  /** Forks by the path of the session they were forked from. */
  forks: Map<string, string[]>;
  /** The listed parent of each fork. */
  parentOf: Map<string, string>;
}

/**
 * Threads forks under their parentSession (pi writes the parent's path; an id
 * or a file name is matched too). Cycles are broken: such sessions stay on top.
 */
export function threadForks(paths: readonly string[], header: (path: string) => { id: string; parentSession?: string } | undefined): Threads {
  const byKey = new Map<string, string>();
  for (const path of paths) {
    byKey.set(path, path);
    byKey.set(basename(path), path);
    const id = header(path)?.id;
    if (id) byKey.set(id, path);
  }
  const parentOf = new Map<string, string>();
  for (const path of paths) {
    const parent = header(path)?.parentSession;
    const found = parent ? (byKey.get(parent) ?? byKey.get(basename(parent))) : undefined;
    if (found && found !== path) parentOf.set(path, found);
  }
  // A fork whose ancestors lead back to it is listed on top.
  for (const path of paths) {
    let current = parentOf.get(path);
    // Most sessions are no fork: no walk (a set per row was ≈ 1 MB of garbage per 5,000 rows listed).
    if (current === undefined) continue;
    const seen = new Set<string>([path]);
    while (current && !seen.has(current)) {
      seen.add(current);
      current = parentOf.get(current);
    }
    if (current) parentOf.delete(path);
  }
  const top: string[] = [];
  const forks = new Map<string, string[]>();
  for (const path of paths) {
    const parent = parentOf.get(path);
    if (!parent) top.push(path);
    else forks.set(parent, [...(forks.get(parent) ?? []), path]);
  }
  return { top, forks, parentOf };
}
