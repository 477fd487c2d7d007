// Entry ids → position of the latest entry with that id: an open-addressing
// hash table over typed arrays. A session of ~100 k entries put every new id
// into a Map<string, number>; the Map's lookups (a bucket array, an entry
// chain, the key string) were the largest single cost of indexing a big file.
// Here a lookup touches one 4-byte slot and the entry's stored hash, and
// compares strings only when the hashes agree.

/** FNV-1a over the UTF-16 code units. */
function hashOf(s: string): number {
  let h = 0x811c9dc5 | 0;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h;
}

/** Whether string `id` is the ASCII bytes [s, e) of `b`. */
export function sameAscii(id: string, b: Uint8Array, s: number, e: number): boolean {
  if (id.length !== e - s) return false;
  for (let k = 0; k < id.length; k++) if (id.charCodeAt(k) !== b[s + k]) return false;
  return true;
}

/** The table as it is, for an index snapshot. */
export interface IdTableState {
  slots: Int32Array;
  used: number;
  /** hashes[i] for every entry position (cut to the entry count). */
  hashes: Int32Array;
}

/** Below this many waiting positions, settle puts them in file order (no sort). */
const SORT_FROM = 256;

export class IdTable {
  /** Position + 1 of an entry, 0 for an empty slot. */
  private slots: Int32Array = new Int32Array(1024);
  private mask = 1023;
  private used = 0;
  /** hash of ids[i], by entry position. */
  private hashes: Int32Array = new Int32Array(1024);
  /** While deferring (defer()): positions [settledTo, noted) have their hash but are not in `slots` yet. */
  private deferring = false;
  private settledTo = 0;
  private noted = 0;
  /** Told of each id put again (position, the position it mapped to before) when a deferred put is settled, in file order. */
  onDuplicate: (i: number, previousAt: number) => void = () => undefined;

  /** `ids[i]` is entry i's id (the index's own column; the table never copies strings). */
  constructor(private readonly ids: readonly string[]) {}

  /**
   * From now on put only notes the position (and returns -1); the table is
   * filled when it is next read (get, size, …) or settle() is called, in the
   * order of the slots (a read from scratch of a big file: no random access
   * per entry). Duplicates then reach onDuplicate.
   */
  defer(): void {
    this.deferring = true;
  }

  /** Fills in the deferred positions and stops deferring. */
  endDeferral(): void {
    this.settle();
    this.deferring = false;
  }

  /** Views of the arrays (not copies): take it while nothing is put. */
  exportState(count: number): IdTableState {
    this.settle();
    return { slots: this.slots, used: this.used, hashes: this.hashes.subarray(0, count) };
  }

  /** A table over a state its loader checked (slots a power of two with a free slot, values ≤ ids.length). */
  static fromState(ids: readonly string[], s: IdTableState): IdTable {
    const t = new IdTable(ids);
    t.slots = s.slots;
    t.mask = s.slots.length - 1;
    t.used = s.used;
    t.hashes = s.hashes;
    t.settledTo = t.noted = s.hashes.length;
    return t;
  }

  /** Distinct ids. */
  get size(): number {
    this.settle();
    return this.used;
  }

  /** Maps ids[i] to i; returns the position it mapped to before, or -1. */
  put(i: number): number {
    return this.putHashed(i, hashOf(this.ids[i]!));
  }

  /** put, with `h` = hashOf(ids[i]) already known (hashed from the line's bytes). */
  putHashed(i: number, h: number): number {
    if (i >= this.hashes.length) {
      const bigger = new Int32Array(Math.max(i + 1, this.hashes.length * 2));
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    this.hashes[i] = h;
    if (this.deferring && i === this.noted) {
      this.noted = i + 1;
      return -1;
    }
    this.settle();
    this.noted = this.settledTo = Math.max(this.noted, i + 1);
    return this.insert(i, h);
  }

  /** Puts position i (hash h) into the slots; the position its id mapped to before, or -1. */
  private insert(i: number, h: number): number {
    if ((this.used + 1) * 2 > this.mask) this.rehash();
    const slots = this.slots;
    const mask = this.mask;
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const v = slots[p]!;
      if (v === 0) {
        slots[p] = i + 1;
        this.used++;
        return -1;
      }
      const j = v - 1;
      // (The id strings only when the hashes agree: in a settle, i and j are anywhere in the file.)
      if (this.hashes[j] === h && this.ids[j] === this.ids[i]) {
        slots[p] = i + 1;
        return j;
      }
    }
  }

  /** Puts the deferred positions in, grouped by their first slot (so the slots are visited in order), equal slots in file order. */
  settle(): void {
    const from = this.settledTo;
    const to = this.noted;
    if (from === to) return;
    this.settledTo = to;
    const n = to - from;
    let mask = this.mask;
    while ((this.used + n + 1) * 2 > mask) mask = mask * 2 + 1;
    if (mask !== this.mask) this.rehash(mask);
    const hashes = this.hashes;
    let duplicates: number[] | null = null;
    if (n < SORT_FROM) {
      for (let i = from; i < to; i++) {
        const previousAt = this.insert(i, hashes[i]!);
        if (previousAt >= 0) (duplicates ??= []).push(i, previousAt);
      }
    } else {
      // A counting sort by the top bits of the first slot, about n/4 buckets (stable: equal ids stay in file order).
      const bucketBits = Math.min(16, 32 - Math.clz32(n) - 2);
      const shift = Math.max(0, 32 - Math.clz32(mask) - bucketBits);
      const counts = new Int32Array((mask >>> shift) + 2);
      for (let i = from; i < to; i++) counts[((hashes[i]! & mask) >>> shift) + 1]!++;
      for (let k = 1; k < counts.length; k++) counts[k]! += counts[k - 1]!;
      const order = new Int32Array(n);
      for (let i = from; i < to; i++) order[counts[(hashes[i]! & mask) >>> shift]!++] = i;
      for (let k = 0; k < n; k++) {
        const i = order[k]!;
        const previousAt = this.insert(i, hashes[i]!);
        if (previousAt >= 0) (duplicates ??= []).push(i, previousAt);
      }
    }
    if (duplicates === null) return;
    // In file order, as the puts would have reported them one by one.
    const pairs: [number, number][] = [];
    for (let k = 0; k < duplicates.length; k += 2) pairs.push([duplicates[k]!, duplicates[k + 1]!]);
    pairs.sort((a, b) => a[0] - b[0]);
    for (const [i, previousAt] of pairs) this.onDuplicate(i, previousAt);
  }

  /** Position of the latest entry with this id, or -1. */
  get(id: string): number {
    this.settle();
    const h = hashOf(id);
    const slots = this.slots;
    const mask = this.mask;
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const v = slots[p]!;
      if (v === 0) return -1;
      const j = v - 1;
      if (this.hashes[j] === h && this.ids[j] === id) return j;
    }
  }

  /**
   * get(id) for an ASCII id held as bytes [s, e) of `b` whose FNV-1a is `h`
   * (equal to hashOf of its string): no string is made.
   */
  getBytes(b: Uint8Array, s: number, e: number, h: number): number {
    this.settle();
    const slots = this.slots;
    const mask = this.mask;
    for (let p = h & mask; ; p = (p + 1) & mask) {
      const v = slots[p]!;
      if (v === 0) return -1;
      const j = v - 1;
      if (this.hashes[j] === h && sameAscii(this.ids[j]!, b, s, e)) return j;
    }
  }

  /** Room for `count` entries without growing (a reader that can estimate how many a file holds). */
  reserve(count: number): void {
    if (count > this.hashes.length) {
      const bigger = new Int32Array(count);
      bigger.set(this.hashes);
      this.hashes = bigger;
    }
    let mask = this.mask;
    while ((count + 1) * 2 > mask) mask = mask * 2 + 1;
    if (mask !== this.mask) this.rehash(mask);
  }

  private rehash(mask = this.mask * 2 + 1): void {
    const old = this.slots;
    this.mask = mask;
    const slots = new Int32Array(this.mask + 1);
    for (let k = 0; k < old.length; k++) {
      const v = old[k]!;
      if (v === 0) continue;
      let p = this.hashes[v - 1]! & this.mask;
      while (slots[p] !== 0) p = (p + 1) & this.mask;
      slots[p] = v;
    }
    this.slots = slots;
  }
}
