// A root→leaf branch whose bodies are parsed only when asked for: entry types
// and ids come from the index, a few bodies are read one at a time (the newest
// entries, the cut point), and long runs are read in one pass in file order,
// each body handed on and dropped. Streaming readers of a 100 MB branch (the
// compaction `prepare` describes) thus never hold every parsed body at once.

import type { EntryMeta } from "../session/format/entry-meta.js";
import { NO_LINE_CHECKS, type LineChecks } from "../session/scan/line-checks.js";
import { emptyMessageShape, type MessageShape } from "../session/scan/message-shapes.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { SessionEntry } from "../session/format/types.js";

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
  /**
   * forEach for readers that can work from a line's bytes: `line` is the
   * entry's line (valid JSON, checked by an exact read) where the session holds
   * its file in memory, else undefined; `entry()` parses it (not kept);
   * `checks`: what the read established about the line's bytes (line-checks.ts);
   * `shape`: where its message's role and content are, when the read found
   * them (message-shapes.ts; the object is reused after the call).
   */
  forEachLine(
    start: number,
    end: number,
    wanted: (type: string) => boolean,
    visit: (i: number, line: Buffer | undefined, entry: () => SessionEntry, checks: LineChecks, shape: MessageShape | undefined) => void,
  ): void;
  /** Calls `visit` with the entries at `positions`, in that order; the bodies are not kept. */
  forEachAt(positions: readonly number[], visit: (entry: SessionEntry, i: number) => void): void;
  /** Every entry, parsed (for code that needs the plain array). */
  all(): SessionEntry[];
}

/** A branch already in memory (tests, and the code that has one). */
export function branchReaderOf(entries: readonly SessionEntry[]): BranchReader {
  const forEach: BranchReader["forEach"] = (start, end, wanted, visit) => {
    for (let i = Math.max(0, start); i < Math.min(end, entries.length); i++) {
      const entry = entries[i]!;
      if (wanted(entry.type)) visit(entry, i);
    }
  };
  return {
    length: entries.length,
    typeAt: (i) => entries[i]!.type,
    idAt: (i) => entries[i]!.id,
    entry: (i) => entries[i]!,
    forEach,
    forEachLine: (start, end, wanted, visit) => forEach(start, end, wanted, (entry, i) => visit(i, undefined, () => entry, NO_LINE_CHECKS, undefined)),
    forEachAt(positions, visit) {
      for (const i of positions) visit(entries[i]!, i);
    },
    all: () => [...entries],
  };
}

/**
 * The branch of `session` ending at `leafId` (pi's getBranch: undefined = the
 * index's leaf, null = empty), bodies parsed from the file as needed. A session
 * shown migrated (v1/v2) is already in memory and read as such. Types and ids
 * come from the index's columns; an entry's meta is made only when its body is read.
 */
export function sessionBranchReader(session: LoadedSession, leafId?: string | null): BranchReader {
  if (session.needsMigration) return branchReaderOf(session.pathTo(leafId));
  const index = session.index;
  const leaf = leafId === undefined ? index.leafId : leafId;
  // pathIds' walk (a parentId cycle stops before the first repeated entry), as positions.
  const at: number[] = leaf === null ? [] : index.pathPositions(leaf);
  const pick = (start: number, end: number, wanted: (type: string) => boolean): [EntryMeta[], number[]] => {
    const picked: EntryMeta[] = [];
    const positions: number[] = [];
    for (let i = Math.max(0, start); i < Math.min(end, at.length); i++) {
      if (!wanted(index.typeAt(at[i]!))) continue;
      picked.push(index.at(at[i]!));
      positions.push(i);
    }
    return [picked, positions];
  };
  const forEach: BranchReader["forEach"] = (start, end, wanted, visit) => {
    const [picked, positions] = pick(start, end, wanted);
    session.eachEntryAt(picked, (entry, k) => visit(entry, positions[k]!));
  };
  return {
    length: at.length,
    typeAt: (i) => index.typeAt(at[i]!),
    idAt: (i) => index.idAt(at[i]!),
    entry: (i) => session.entryAt(index.at(at[i]!)),
    forEach,
    forEachLine(start, end, wanted, visit) {
      const first = Math.max(0, start);
      const last = Math.min(end, at.length);
      let k = first;
      while (k < last && !wanted(index.typeAt(at[k]!))) k++;
      if (k === last) return;
      if (session.checkedLineAt(at[k]!) === undefined) {
        const [picked, positions] = pick(start, end, wanted);
        session.eachEntryAt(picked, (entry, n) => visit(positions[n]!, undefined, () => entry, NO_LINE_CHECKS, undefined));
        return;
      }
      // Lines held in memory: handed over by position, a meta made only when a body is parsed.
      const shape = emptyMessageShape();
      for (; k < last; k++) {
        const p = at[k]!;
        if (!wanted(index.typeAt(p))) continue;
        const shaped = session.checkedMessageShapeAt(p, shape) ? shape : undefined;
        visit(k, session.checkedLineAt(p), () => session.entryAt(index.at(p)), session.checkedLineChecksAt(p), shaped);
      }
    },
    forEachAt(positions, visit) {
      session.eachEntryAt(
        positions.map((i) => index.at(at[i]!)),
        (entry, k) => visit(entry, positions[k]!),
      );
    },
    all: () => session.pathTo(leaf),
  };
}
