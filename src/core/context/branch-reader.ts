// A root→leaf branch whose bodies are parsed only when asked for: entry types
// and ids come from the index, a few bodies are read one at a time (the newest
// entries, the cut point), and long runs are read in one pass in file order,
// each body handed on and dropped. Streaming readers of a 100 MB branch (the
// compaction `prepare` describes) thus never hold every parsed body at once.

import type { EntryMeta } from "../session/entry-meta.js";
import type { LoadedSession } from "../session/open-session.js";
import type { SessionIndex } from "../session/session-index.js";
import type { SessionEntry } from "../session/types.js";

export interface BranchReader {
  readonly length: number;
  /** `entries[i].type` without parsing the body. */
  typeAt(i: number): string;
  /** `entries[i].id` without parsing the body. */
  idAt(i: number): string;
  /** The parsed entry (may be cached: treat as read-only). */
  entry(i: number): SessionEntry;
  /**
   * Calls `visit` with the entries of [start, end) whose type `wanted` accepts,
   * in branch order; the bodies are not kept.
   */
  forEach(start: number, end: number, wanted: (type: string) => boolean, visit: (entry: SessionEntry, i: number) => void): void;
  /** Calls `visit` with the entries at `positions`, in that order; the bodies are not kept. */
  forEachAt(positions: readonly number[], visit: (entry: SessionEntry, i: number) => void): void;
  /** Every entry, parsed (for code that needs the plain array). */
  all(): SessionEntry[];
}

/** A branch already in memory (tests, and the code that has one). */
export function branchReaderOf(entries: readonly SessionEntry[]): BranchReader {
  return {
    length: entries.length,
    typeAt: (i) => entries[i]!.type,
    idAt: (i) => entries[i]!.id,
    entry: (i) => entries[i]!,
    forEach(start, end, wanted, visit) {
      for (let i = Math.max(0, start); i < Math.min(end, entries.length); i++) {
        const entry = entries[i]!;
        if (wanted(entry.type)) visit(entry, i);
      }
    },
    forEachAt(positions, visit) {
      for (const i of positions) visit(entries[i]!, i);
    },
    all: () => [...entries],
  };
}

/**
 * index.pathIds(leaf) as metas, in one lookup per entry: a walk longer than
 * the index has entries must repeat one (a parentId cycle), and is left to
 * pathIds, which stops before the first repeated entry.
 */
function pathMetas(index: SessionIndex, leafId: string): EntryMeta[] {
  const metas: EntryMeta[] = [];
  for (let meta = index.get(leafId); meta; meta = meta.parentId ? index.get(meta.parentId) : undefined) {
    metas.push(meta);
    if (metas.length > index.size) return index.pathIds(leafId).map((id) => index.get(id)!);
  }
  return metas.reverse();
}

/**
 * The branch of `session` ending at `leafId` (pi's getBranch: undefined = the
 * index's leaf, null = empty), bodies parsed from the file as needed. A session
 * shown migrated (v1/v2) is already in memory and read as such.
 */
export function sessionBranchReader(session: LoadedSession, leafId?: string | null): BranchReader {
  if (session.needsMigration) return branchReaderOf(session.pathTo(leafId));
  const leaf = leafId === undefined ? session.index.leafId : leafId;
  const metas: EntryMeta[] = leaf === null ? [] : pathMetas(session.index, leaf);
  return {
    length: metas.length,
    typeAt: (i) => metas[i]!.type,
    idAt: (i) => metas[i]!.id,
    entry: (i) => session.entryAt(metas[i]!),
    forEach(start, end, wanted, visit) {
      const picked: EntryMeta[] = [];
      const positions: number[] = [];
      for (let i = Math.max(0, start); i < Math.min(end, metas.length); i++) {
        if (!wanted(metas[i]!.type)) continue;
        picked.push(metas[i]!);
        positions.push(i);
      }
      session.eachEntryAt(picked, (entry, k) => visit(entry, positions[k]!));
    },
    forEachAt(positions, visit) {
      session.eachEntryAt(
        positions.map((i) => metas[i]!),
        (entry, k) => visit(entry, positions[k]!),
      );
    },
    all: () => session.pathTo(leaf),
  };
}
