// How many children each entry has, by index position, for the Entries model.
// The index's childCount(id) builds a map of children by parent id on first
// use (≈ 4 MB for a 100 MB session, and twice that allocated while it grows);
// when no id repeats and none is empty, an entry's parent is one position
// (parentPositionOf), so one byte per entry counts the same. Counts stop at
// 255: a larger one is asked of the index. The model keeps the counts in step
// with appends, and builds itself again when an append could change an
// earlier entry's parent (an entry taking the id an orphan names).
import type { SessionIndex } from "../../core/session/index/session-index";

const SATURATED = 255;

export class ChildCounts {
  private counts: Uint8Array;
  private size = 0;

  private constructor(capacity: number) {
    this.counts = new Uint8Array(Math.max(64, capacity));
  }

  /** The counts of `index`, or undefined when they cannot stand for childCount(id) (repeated or empty ids). */
  static of(index: SessionIndex): ChildCounts | undefined {
    if (index.duplicateCount > 0) return undefined;
    const counts = new ChildCounts(index.size);
    return counts.extend(index) ? counts : undefined;
  }

  /** Counts the entries appended since (false: an empty id appeared, the counts no longer apply). */
  extend(index: SessionIndex): boolean {
    if (index.duplicateCount > 0) return false;
    if (index.size > this.counts.length) {
      const grown = new Uint8Array(Math.max(index.size, this.counts.length * 2));
      grown.set(this.counts);
      this.counts = grown;
    }
    for (let i = this.size; i < index.size; i++) {
      if (index.idAt(i) === "") return false;
      const parent = index.parentPositionOf(i);
      // A self-parented entry is a root, not its own child (as the index's children by id).
      if (parent >= 0 && parent !== i && this.counts[parent]! < SATURATED) this.counts[parent]!++;
    }
    this.size = index.size;
    return true;
  }

  /** Children of the entry at `position`; undefined when too many to have been counted here. */
  at(position: number): number | undefined {
    const n = this.counts[position]!;
    return n === SATURATED ? undefined : n;
  }
}
