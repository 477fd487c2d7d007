// The root→leaf path of a session's current leaf (the last entry, as pi), kept
// up to date as entries are appended to its index: a new leaf usually hangs
// below the old one (one push); after a branch switch the path is cut where the
// new leaf's ancestors meet it. Equal to `index.pathIds(index.leafId)` at all
// times; cases where an append can move earlier lookups (a reused id, an id
// that resolves the root's missing parent, a path cut short by a cycle) rebuild it.

import type { EntryKind, EntryMeta } from "../format/entry-meta.js";
import type { SessionIndex } from "./session-index.js";

export class BranchPath {
  /** Index positions of the path's entries, root first (metas are made only when asked for). */
  private readonly list: number[] = [];
  /** By index position: position on the path + 1 (0: not on it). */
  private positions = new Int32Array(1024);
  private seen = 0;
  private duplicates = 0;
  /** Reused by kindAt (its callers read it at once). */
  private readonly kind: { type: string; role: string | undefined } = { type: "", role: undefined };

  constructor(readonly index: SessionIndex) {
    this.rebuild();
  }

  /** Root first (every meta is made). */
  get entries(): readonly EntryMeta[] {
    return this.list.map((i) => this.index.at(i));
  }

  get length(): number {
    return this.list.length;
  }

  at(position: number): EntryMeta {
    return this.index.at(this.list[position]!);
  }

  /** Type and role of the entry at `position`, without making its meta (valid until the next call). */
  kindAt(position: number): EntryKind {
    const i = this.list[position]!;
    this.kind.type = this.index.typeAt(i);
    this.kind.role = this.index.roleAt(i);
    return this.kind;
  }

  /** Position of the entry on the path, or -1. */
  positionOfMeta(meta: EntryMeta): number {
    return meta.index < this.positions.length ? this.positions[meta.index]! - 1 : -1;
  }

  positionOf(id: string): number {
    const meta = this.index.get(id);
    return meta ? this.positionOfMeta(meta) : -1;
  }

  /**
   * Takes in the entries appended to the index since the last call. Returns how
   * many leading positions are unchanged (positions from there on are new).
   */
  sync(): number {
    const index = this.index;
    const size = index.size;
    if (size === this.seen) return this.list.length;
    this.seen = size;
    if (index.duplicateCount !== this.duplicates) return this.rebuild();
    // The root's parent exists: either an appended entry resolves it, or the walk
    // stopped on a cycle (which a new walk may enter elsewhere). Walk again.
    const root = this.list[0];
    if (root !== undefined && index.parentPositionOf(root) >= 0) return this.rebuild();
    this.grow(size);
    const chain: number[] = [];
    const onChain = new Set<number>();
    let current = size - 1;
    while (current >= 0 && this.positions[current] === 0 && !onChain.has(current)) {
      onChain.add(current);
      chain.push(current);
      current = index.parentPositionOf(current);
    }
    const keep = current >= 0 && this.positions[current] !== 0 ? this.positions[current]! : 0;
    this.cut(keep);
    for (let i = chain.length - 1; i >= 0; i--) this.push(chain[i]!);
    return keep;
  }

  private rebuild(): number {
    this.cut(0);
    this.seen = this.index.size;
    this.duplicates = this.index.duplicateCount;
    this.grow(this.seen);
    const leaf = this.index.leafId;
    if (leaf !== null) for (const i of this.index.pathPositions(leaf)) this.push(i);
    return 0;
  }

  private cut(length: number): void {
    for (let i = length; i < this.list.length; i++) this.positions[this.list[i]!] = 0;
    this.list.length = length;
  }

  private push(i: number): void {
    this.list.push(i);
    this.positions[i] = this.list.length;
  }

  private grow(size: number): void {
    if (size <= this.positions.length) return;
    const bigger = new Int32Array(Math.max(size, this.positions.length * 2));
    bigger.set(this.positions);
    this.positions = bigger;
  }
}
