// What a streamed catalogue row keeps per entry while it reads a file: where
// the line is, its parent (as an entry number) and its kind, in typed arrays,
// plus the id strings (needed to resolve parents and to check a body read
// again). No EntryMeta objects and no bodies: a 100 MB session costs a few MB.

import type { EntryMeta } from "../session/format/entry-meta.js";
import { IdTable } from "../session/index/id-table.js";

/** `parent` of an entry without one (null, "", or an id not in the file). */
export const NO_PARENT = -1;
/** `parent` of an entry whose parent id was not seen yet when it was read (resolved at the end). */
const LATER = -2;

function grown<T extends Float64Array | Int32Array | Uint8Array>(array: T, size: number, make: (n: number) => T): T {
  if (size <= array.length) return array;
  const bigger = make(Math.max(size, array.length * 2));
  bigger.set(array);
  return bigger;
}

export class EntryTable {
  size = 0;
  /** Entry number by id (ids are unique here: a reused id makes the caller read the file in full). */
  readonly ids: string[] = [];
  private readonly byId = new IdTable(this.ids);
  private offsets = new Float64Array(1024);
  private lengths = new Int32Array(1024);
  private lines = new Int32Array(1024);
  private parents = new Int32Array(1024);
  private typeCodes = new Uint8Array(1024);
  private roleCodes = new Uint8Array(1024);
  /** Distinct `type` / `role` strings (code = position; role 0 = none). */
  private readonly types: string[] = [];
  private readonly roles: (string | undefined)[] = [undefined];
  private readonly laterParents = new Map<number, string>();

  /** Adds the next entry; false when its id was used before or it has a 256th distinct type or role. */
  add(meta: EntryMeta): boolean {
    if (this.byId.get(meta.id) >= 0) return false;
    const type = this.code(this.types, meta.type);
    const role = this.code(this.roles, meta.role);
    if (type < 0 || role < 0) return false;
    const i = this.size++;
    if (i === this.offsets.length) {
      const n = i + 1;
      this.offsets = grown(this.offsets, n, (k) => new Float64Array(k));
      this.lengths = grown(this.lengths, n, (k) => new Int32Array(k));
      this.lines = grown(this.lines, n, (k) => new Int32Array(k));
      this.parents = grown(this.parents, n, (k) => new Int32Array(k));
      this.typeCodes = grown(this.typeCodes, n, (k) => new Uint8Array(k));
      this.roleCodes = grown(this.roleCodes, n, (k) => new Uint8Array(k));
    }
    this.offsets[i] = meta.offset;
    this.lengths[i] = meta.length;
    this.lines[i] = meta.line;
    this.typeCodes[i] = type;
    this.roleCodes[i] = role;
    // pi's getBranch ends at a falsy parentId; a later line may hold the parent (lookups are by the whole file).
    const parentId = meta.parentId;
    if (!parentId) this.parents[i] = NO_PARENT;
    else {
      const parent = this.byId.get(parentId);
      if (parent >= 0) this.parents[i] = parent;
      else {
        this.parents[i] = LATER;
        this.laterParents.set(i, parentId);
      }
    }
    this.ids.push(meta.id);
    this.byId.put(i);
    return true;
  }

  private code(list: (string | undefined)[], value: string | undefined): number {
    let c = list.indexOf(value);
    if (c < 0) {
      if (list.length === 256) return -1;
      c = list.push(value) - 1;
    }
    return c;
  }

  /** Resolves parents that came later in the file (call once, after the last add). */
  finish(): void {
    for (const [i, parentId] of this.laterParents) {
      const parent = this.byId.get(parentId);
      this.parents[i] = parent >= 0 ? parent : NO_PARENT;
    }
    this.laterParents.clear();
  }

  numberOf(id: string): number | undefined {
    const i = this.byId.get(id);
    return i >= 0 ? i : undefined;
  }

  parentOf(i: number): number {
    return this.parents[i]!;
  }

  type(i: number): string {
    return this.types[this.typeCodes[i]!]!;
  }

  /**
   * A shared meta holding only the entry's type and role, for the token rule's
   * questions about kinds (isUsageCandidate, isResetCandidate, messagesFromMeta
   * look at nothing else): one object per kind, not one per question.
   */
  kind(i: number): EntryMeta {
    const key = this.typeCodes[i]! * 256 + this.roleCodes[i]!;
    let meta = this.kinds.get(key);
    if (meta === undefined) {
      meta = this.meta(i);
      this.kinds.set(key, meta);
    }
    return meta;
  }

  private readonly kinds = new Map<number, EntryMeta>();

  /**
   * A meta for the rule's questions (type, role) and for reading the body again
   * (id, line, offset, length); the tree fields are not filled in.
   */
  meta(i: number): EntryMeta {
    const meta: EntryMeta = { index: i, line: this.lines[i]!, offset: this.offsets[i]!, length: this.lengths[i]!, type: this.type(i), id: this.ids[i]!, parentId: null, timestamp: "" };
    const role = this.roles[this.roleCodes[i]!];
    if (role !== undefined) meta.role = role;
    return meta;
  }

  /**
   * Entry numbers root→leaf from `leaf`, walking parents as pi's getBranch does;
   * a cycle ends the walk before the first repeated entry (as SessionIndex.pathIds).
   */
  branchTo(leaf: number): Int32Array {
    const seen = new Uint8Array(this.size);
    const up: number[] = [];
    for (let i = leaf; i !== NO_PARENT && seen[i] === 0; i = this.parents[i]!) {
      seen[i] = 1;
      up.push(i);
    }
    const branch = new Int32Array(up.length);
    for (let p = 0; p < up.length; p++) branch[p] = up[up.length - 1 - p]!;
    return branch;
  }
}
