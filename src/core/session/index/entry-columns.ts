// The index's per-entry data as columns (struct of arrays): numbers in typed
// arrays (pi's ISO timestamps as milliseconds, parents as positions), ids and
// the shared type/role strings in plain arrays, the rare fields (label, name,
// odd timestamps, parents not in the file) in a sparse map. A 100 MB session holds ~100 k entries:
// as objects they were ~100 k long-lived heap objects the GC copied while the
// file was read; as columns they are a few arrays. An `EntryMeta` object is
// made when someone asks for one, and kept, so the same entry is always the
// same object.

import type { EntryMeta, Spend } from "../format/entry-meta.js";
import type { EntryRecord, RareFields } from "../format/entry-record.js";
import { isoMillis } from "../skim/iso-millis.js";
import { timeOf } from "../scan/meta-from-fields.js";
import type { SkimmedEntry } from "../skim/skimmed-entry.js";
import type { SliceableBuffer } from "../scan/scanned-values.js";
import { objectArray } from "../bytes/object-array.js";
import { viewOver } from "../skim/skim-bytes.js";

export { isoMillis };
export { metaOfRecord, recordOf } from "../format/entry-record.js";
export type { EntryRecord, RareFields } from "../format/entry-record.js";

const SPEND_WIDTH = 5;
const FLAG_SPEND = 1;
const FLAG_ACTIVITY = 2;

/** The columns as they are (typed arrays cut to `count`), for an index snapshot. */
export interface ColumnsState {
  count: number;
  ids: string[];
  types: string[];
  roles: (string | undefined)[];
  parents: Int32Array;
  times: Float64Array;
  stamps: Uint8Array;
  lines: Float64Array;
  offsets: Float64Array;
  lengths: Float64Array;
  activity: Float64Array;
  spends: Float64Array;
  flags: Uint8Array;
  rare: Map<number, RareFields>;
}

const NO_PARENT = -1;
/** The parent id is kept as text (RareFields.parentText). */
const PARENT_TEXT = -2;

export class EntryColumns {
  private count = 0;
  /** Position of an entry whose id is the parentId (any with that id), or NO_PARENT / PARENT_TEXT. */
  private parents: Int32Array = new Int32Array(0);
  /** The timestamp as ms when toISOString gives it back exactly, else NaN (text in RareFields). */
  private times: Float64Array = new Float64Array(0);
  /** Those timestamps' 24 characters (making the string again is a slice, not a toISOString). */
  private stamps = Buffer.alloc(0) as SliceableBuffer;
  /** `stamps` as little-endian 32-bit words (pushSkimmed copies a timestamp six words at a time). */
  private stampWords: Int32Array = new Int32Array(0);
  private lines: Float64Array = new Float64Array(0);
  private offsets: Float64Array = new Float64Array(0);
  private lengths: Float64Array = new Float64Array(0);
  private activity: Float64Array = new Float64Array(0);
  private spends: Float64Array = new Float64Array(0);
  private flags: Uint8Array = new Uint8Array(0);
  /** Metas made so far, by entry position (holes until asked for). */
  private metas: (EntryMeta | undefined)[] = [];
  /** metas[0, madePrefix) are all made (all() then makes only the newer ones). */
  private madePrefix = 0;
  /** How many metas were made (each is kept as long as the index). */
  metasMade = 0;

  get size(): number {
    return this.count;
  }

  /** The state as views (not copies): take it while nothing is pushed. */
  exportState(): ColumnsState {
    const n = this.count;
    return {
      count: n,
      ids: this.ids,
      types: this.types,
      roles: this.roles,
      parents: this.parents.subarray(0, n),
      times: this.times.subarray(0, n),
      stamps: this.stamps.subarray(0, n * ISO_LENGTH),
      lines: this.lines.subarray(0, n),
      offsets: this.offsets.subarray(0, n),
      lengths: this.lengths.subarray(0, n),
      activity: this.activity.subarray(0, n),
      spends: this.spends.subarray(0, n * SPEND_WIDTH),
      flags: this.flags.subarray(0, n),
      rare: this.rare,
    };
  }

  /** Columns over a state (checked by its loader); the arrays are taken over, and grown by copying on the next push. */
  static fromState(s: ColumnsState): EntryColumns {
    const c = new EntryColumns(s.ids, s.types, s.roles, s.rare);
    c.count = s.count;
    c.parents = s.parents;
    c.times = s.times;
    c.stamps = Buffer.from(s.stamps.buffer, s.stamps.byteOffset, s.stamps.byteLength) as SliceableBuffer;
    c.lines = s.lines;
    c.offsets = s.offsets;
    c.lengths = s.lengths;
    c.activity = s.activity;
    c.spends = s.spends;
    c.flags = s.flags;
    return c;
  }

  constructor(
    readonly ids: string[] = objectArray(),
    readonly types: string[] = objectArray(),
    private readonly roles: (string | undefined)[] = objectArray(),
    private readonly rare = new Map<number, RareFields>(),
  ) {}

  /**
   * Adds entry `count`. `parentAt` is the position of an earlier entry whose id
   * is r.parentId, or -1 (then the text is kept).
   */
  push(r: EntryRecord, parentAt: number): number {
    const i = this.count;
    if (i === this.lines.length) this.grow(Math.max(1024, i * 2));
    this.ids.push(r.id);
    this.types.push(r.type);
    this.roles.push(r.role);
    let rare = r.rare;
    if (r.parentId === null) this.parents[i] = NO_PARENT;
    else if (parentAt >= 0) this.parents[i] = parentAt;
    else {
      this.parents[i] = PARENT_TEXT;
      rare = { ...rare, parentText: r.parentId };
    }
    const ms = isoMillis(r.timestamp);
    this.times[i] = ms;
    if (Number.isNaN(ms)) rare = { ...rare, timestampText: r.timestamp };
    else for (let k = 0, at = i * ISO_LENGTH; k < ISO_LENGTH; k++) this.stamps[at + k] = r.timestamp.charCodeAt(k);
    this.lines[i] = r.line;
    this.offsets[i] = r.offset;
    this.lengths[i] = r.length;
    let flags = 0;
    if (!Number.isNaN(r.activityTime)) {
      this.activity[i] = r.activityTime;
      flags |= FLAG_ACTIVITY;
    }
    const s = r.spend;
    if (s !== undefined) {
      const at = i * SPEND_WIDTH;
      this.spends[at] = s.input;
      this.spends[at + 1] = s.output;
      this.spends[at + 2] = s.cacheRead;
      this.spends[at + 3] = s.cacheWrite;
      this.spends[at + 4] = s.cost;
      flags |= FLAG_SPEND;
    }
    this.flags[i] = flags;
    if (rare !== undefined) this.rare.set(i, rare);
    this.count = i + 1;
    return i;
  }

  /**
   * push for a line read by skimPiLayout: the same columns from the
   * line's bytes (`b`), no EntryRecord. `parentAt` as in push; `parentText`
   * the parentId when no earlier entry has it.
   */
  pushSkimmed(m: SkimmedEntry, b: Uint8Array, id: string, parentAt: number, parentText: string | undefined, line: number, offset: number, length: number): number {
    const i = this.count;
    if (i === this.lines.length) this.grow(Math.max(1024, i * 2));
    this.ids.push(id);
    this.types.push(m.type);
    this.roles.push(m.role);
    if (m.parentStart < 0) this.parents[i] = NO_PARENT;
    else if (parentAt >= 0) this.parents[i] = parentAt;
    else {
      this.parents[i] = PARENT_TEXT;
      this.rare.set(i, { parentText });
    }
    this.times[i] = m.millis;
    const w = this.stampWords;
    const from = m.stampStart;
    const at = i * STAMP_WORDS;
    if (at + STAMP_WORDS <= w.length) {
      const v = viewOver(b);
      w[at] = v.getInt32(from, true);
      w[at + 1] = v.getInt32(from + 4, true);
      w[at + 2] = v.getInt32(from + 8, true);
      w[at + 3] = v.getInt32(from + 12, true);
      w[at + 4] = v.getInt32(from + 16, true);
      w[at + 5] = v.getInt32(from + 20, true);
    } else {
      // Columns taken over from a snapshot have no word view until they grow.
      for (let k = 0, to = i * ISO_LENGTH; k < ISO_LENGTH; k++) this.stamps[to + k] = b[from + k]!;
    }
    this.lines[i] = line;
    this.offsets[i] = offset;
    this.lengths[i] = length;
    let flags = 0;
    if (m.role === "user" || m.role === "assistant") {
      this.activity[i] = m.time;
      flags |= FLAG_ACTIVITY;
    }
    if (m.hasSpend && (m.role === "assistant" || m.role === "toolResult")) {
      const at = i * SPEND_WIDTH;
      const spends = this.spends;
      spends[at] = m.input;
      spends[at + 1] = m.output;
      spends[at + 2] = m.cacheRead;
      spends[at + 3] = m.cacheWrite;
      spends[at + 4] = m.cost;
      flags |= FLAG_SPEND;
    }
    this.flags[i] = flags;
    this.count = i + 1;
    return i;
  }

  /** Room for `capacity` entries without growing. */
  reserve(capacity: number): void {
    if (capacity > this.lines.length) this.grow(capacity);
  }

  private grow(capacity: number): void {
    const widen = <T extends Float64Array | Int32Array | Uint8Array>(a: T, make: (n: number) => T, width = 1): T => {
      const bigger = make(capacity * width);
      bigger.set(a);
      return bigger;
    };
    const f64 = (n: number) => new Float64Array(n);
    this.parents = widen(this.parents, (n) => new Int32Array(n));
    this.times = widen(this.times, f64);
    this.lines = widen(this.lines, f64);
    this.offsets = widen(this.offsets, f64);
    this.lengths = widen(this.lengths, f64);
    this.activity = widen(this.activity, f64);
    this.spends = widen(this.spends, f64, SPEND_WIDTH);
    this.flags = widen(this.flags, (n) => new Uint8Array(n));
    const stamps = Buffer.alloc(capacity * ISO_LENGTH) as SliceableBuffer;
    stamps.set(this.stamps);
    this.stamps = stamps;
    this.stampWords = new Int32Array(stamps.buffer, stamps.byteOffset, capacity * STAMP_WORDS);
  }

  line(i: number): number {
    return this.lines[i]!;
  }

  /** Byte offset of entry i's line in the file. */
  offset(i: number): number {
    return this.offsets[i]!;
  }

  /** Byte length of entry i's line (no line break). */
  length(i: number): number {
    return this.lengths[i]!;
  }

  role(i: number): string | undefined {
    return this.roles[i];
  }

  rareOf(i: number): RareFields | undefined {
    return this.rare.get(i);
  }

  /** activityTime, or undefined. */
  activityTime(i: number): number | undefined {
    return (this.flags[i]! & FLAG_ACTIVITY) !== 0 ? this.activity[i] : undefined;
  }

  /** Adds entry i's spend to `into`, when it has one. */
  addSpend(i: number, into: Spend): void {
    if ((this.flags[i]! & FLAG_SPEND) === 0) return;
    const at = i * SPEND_WIDTH;
    into.input += this.spends[at]!;
    into.output += this.spends[at + 1]!;
    into.cacheRead += this.spends[at + 2]!;
    into.cacheWrite += this.spends[at + 3]!;
    into.cost += this.spends[at + 4]!;
  }

  /**
   * Position of an entry whose id is entry i's parentId, -1 for none (null),
   * -2 when no earlier entry had it (see parentId).
   */
  parentAt(i: number): number {
    return this.parents[i]!;
  }

  /** The parentId of entry i. */
  parentId(i: number): string | null {
    const at = this.parents[i]!;
    return at >= 0 ? this.ids[at]! : at === NO_PARENT ? null : this.rare.get(i)!.parentText!;
  }

  /** The timestamp string ("" when the value is not a string). */
  timestamp(i: number): string {
    const ms = this.times[i]!;
    return Number.isNaN(ms) ? this.rare.get(i)!.timestampText! : this.stamps.latin1Slice(i * ISO_LENGTH, (i + 1) * ISO_LENGTH);
  }

  /** The newest entry timestamp (ms) among entries [from, to), or `since` when none is newer. */
  newestTime(from: number, to: number, since: number): number {
    const times = this.times;
    let newest = since;
    for (let i = from; i < to; i++) {
      const ms = times[i]!;
      if (ms > newest) newest = ms;
    }
    return newest;
  }

  /** pi's tree-sort key, `new Date(timestamp).getTime()` of the raw value. */
  sortTime(i: number): number {
    const ms = this.times[i]!;
    if (!Number.isNaN(ms)) return ms;
    const rare = this.rare.get(i)!;
    return timeOf("timestampValue" in rare ? rare.timestampValue : rare.timestampText);
  }

  /** The meta of entry i (made once, then the same object). */
  at(i: number): EntryMeta {
    const metas = this.metas;
    while (metas.length <= i) metas.push(undefined);
    const made = metas[i];
    if (made !== undefined) return made;
    const meta: EntryMeta = {
      line: this.lines[i]!,
      offset: this.offsets[i]!,
      length: this.lengths[i]!,
      index: i,
      type: this.types[i]!,
      id: this.ids[i]!,
      parentId: this.parentId(i),
      timestamp: this.timestamp(i),
    };
    const role = this.roles[i];
    if (role !== undefined) meta.role = role;
    const rare = this.rare.get(i);
    if (rare !== undefined) {
      if ("timestampValue" in rare) meta.timestampValue = rare.timestampValue;
      if (rare.targetId !== undefined) meta.targetId = rare.targetId;
      if (rare.label !== undefined) meta.label = rare.label;
      if (rare.name !== undefined) meta.name = rare.name;
    }
    const flags = this.flags[i]!;
    if ((flags & FLAG_ACTIVITY) !== 0) meta.activityTime = this.activity[i]!;
    if ((flags & FLAG_SPEND) !== 0) {
      const at = i * SPEND_WIDTH;
      const s = this.spends;
      meta.spend = { input: s[at]!, output: s[at + 1]!, cacheRead: s[at + 2]!, cacheWrite: s[at + 3]!, cost: s[at + 4]! };
    }
    metas[i] = meta;
    this.metasMade++;
    return meta;
  }

  /** Every meta, in file order (all made; the array grows with the index). */
  all(): readonly EntryMeta[] {
    for (let i = this.madePrefix; i < this.count; i++) this.at(i);
    this.madePrefix = this.count;
    return this.metas as EntryMeta[];
  }
}

const ISO_LENGTH = 24;
const STAMP_WORDS = ISO_LENGTH / 4;
