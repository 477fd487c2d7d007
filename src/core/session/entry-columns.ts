// The index's per-entry data as columns (struct of arrays): numbers in typed
// arrays, strings in plain arrays of shared strings, the rare fields (label,
// name, odd timestamps) in a sparse map. A 100 MB session holds ~100 k entries:
// as objects they were ~100 k long-lived heap objects the GC copied while the
// file was read; as columns they are a few arrays. An `EntryMeta` object is
// made when someone asks for one, and kept, so the same entry is always the
// same object.

import type { EntryMeta, LineLocation, Spend } from "./entry-meta.js";

/** Fields of EntryMeta most entries do not have. */
export interface RareFields {
  timestampValue?: unknown;
  targetId?: string;
  label?: string;
  name?: string;
}

const SPEND_WIDTH = 5;
const FLAG_SPEND = 1;
const FLAG_ACTIVITY = 2;

/** What one entry adds (the fields of EntryMeta without `index`); `null`/NaN for absent ones. */
export interface EntryRecord extends LineLocation {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  role: string | undefined;
  activityTime: number;
  spend: Spend | undefined;
  rare: RareFields | undefined;
}

export class EntryColumns {
  private count = 0;
  readonly ids: string[] = [];
  readonly parentIds: (string | null)[] = [];
  readonly types: string[] = [];
  private readonly roles: (string | undefined)[] = [];
  private readonly timestamps: string[] = [];
  private lines = new Float64Array(0);
  private offsets = new Float64Array(0);
  private lengths = new Float64Array(0);
  private activity = new Float64Array(0);
  private spends = new Float64Array(0);
  private flags = new Uint8Array(0);
  private readonly rare = new Map<number, RareFields>();
  /** Metas made so far, by entry position (holes until asked for). */
  private metas: (EntryMeta | undefined)[] = [];

  get size(): number {
    return this.count;
  }

  push(r: EntryRecord): number {
    const i = this.count;
    if (i === this.lines.length) this.grow(Math.max(1024, i * 2));
    this.ids.push(r.id);
    this.parentIds.push(r.parentId);
    this.types.push(r.type);
    this.roles.push(r.role);
    this.timestamps.push(r.timestamp);
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
    if (r.rare !== undefined) this.rare.set(i, r.rare);
    this.count = i + 1;
    return i;
  }

  private grow(capacity: number): void {
    const widen = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T, width = 1): T => {
      const bigger = make(capacity * width);
      bigger.set(a);
      return bigger;
    };
    const f64 = (n: number) => new Float64Array(n);
    this.lines = widen(this.lines, f64);
    this.offsets = widen(this.offsets, f64);
    this.lengths = widen(this.lengths, f64);
    this.activity = widen(this.activity, f64);
    this.spends = widen(this.spends, f64, SPEND_WIDTH);
    this.flags = widen(this.flags, (n) => new Uint8Array(n));
  }

  line(i: number): number {
    return this.lines[i]!;
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

  /** The raw `timestamp` value for pi's tree sort: the string, or the odd value kept aside. */
  sortTimestamp(i: number): unknown {
    const rare = this.rare.get(i);
    return rare !== undefined && "timestampValue" in rare ? rare.timestampValue : this.timestamps[i];
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
      parentId: this.parentIds[i]!,
      timestamp: this.timestamps[i]!,
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
    return meta;
  }

  /** Every meta, in file order (all made; the array grows with the index). */
  all(): readonly EntryMeta[] {
    for (let i = 0; i < this.count; i++) this.at(i);
    return this.metas as EntryMeta[];
  }
}

/** The record of an EntryMeta (for callers that build metas themselves). */
export function recordOf(meta: EntryMeta): EntryRecord {
  let rare: RareFields | undefined;
  if ("timestampValue" in meta || meta.targetId !== undefined || meta.label !== undefined || meta.name !== undefined) {
    rare = {};
    if ("timestampValue" in meta) rare.timestampValue = meta.timestampValue;
    if (meta.targetId !== undefined) rare.targetId = meta.targetId;
    if (meta.label !== undefined) rare.label = meta.label;
    if (meta.name !== undefined) rare.name = meta.name;
  }
  return {
    line: meta.line,
    offset: meta.offset,
    length: meta.length,
    type: meta.type,
    id: meta.id,
    parentId: meta.parentId,
    timestamp: meta.timestamp,
    role: meta.role,
    activityTime: meta.activityTime ?? Number.NaN,
    spend: meta.spend,
    rare,
  };
}
