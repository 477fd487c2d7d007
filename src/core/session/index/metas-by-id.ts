// SessionIndex.byId: a read-only Map view over the index's id table (metas
// are made as they are read), in Map order (an id's first appearance).

import type { EntryColumns } from "./entry-columns.js";
import type { EntryMeta } from "../format/entry-meta.js";
import type { IdTable } from "./id-table.js";

/** `byId` as a read-only Map view over the id table (metas made as they are read; Map order: first appearance). */
export class MetasById implements ReadonlyMap<string, EntryMeta> {
  constructor(
    private readonly ids: IdTable,
    private readonly columns: EntryColumns,
  ) {}

  get size(): number {
    return this.ids.size;
  }

  get(id: string): EntryMeta | undefined {
    const i = this.ids.get(id);
    return i < 0 ? undefined : this.columns.at(i);
  }

  has(id: string): boolean {
    return this.ids.get(id) >= 0;
  }

  forEach(fn: (value: EntryMeta, key: string, map: ReadonlyMap<string, EntryMeta>) => void, thisArg?: unknown): void {
    for (const [id, meta] of this.entries()) fn.call(thisArg, meta, id, this);
  }

  *entries(): MapIterator<[string, EntryMeta]> {
    const seen = new Set<string>();
    for (let i = 0; i < this.columns.size; i++) {
      const id = this.columns.ids[i]!;
      if (seen.has(id)) continue;
      seen.add(id);
      yield [id, this.columns.at(this.ids.get(id))];
    }
  }

  *keys(): MapIterator<string> {
    for (const [id] of this.entries()) yield id;
  }

  *values(): MapIterator<EntryMeta> {
    for (const [, meta] of this.entries()) yield meta;
  }

  [Symbol.iterator](): MapIterator<[string, EntryMeta]> {
    return this.entries();
  }
}
