// The tree of a session, from metas only (bodies stay in the file). Mirrors
// pi 0.73's SessionManager: byId where a later duplicate wins, getTree's roots
// (parentId null, parentId === id, or a parent that does not exist) and child
// order (stable sort by `new Date(timestamp).getTime()`), leaf = last entry,
// labels and session name as _buildIndex / getSessionName compute them. Unlike
// pi it never loops on a parent cycle.

import type { Diagnostic } from "../../diagnostics.js";
import { EntryColumns, recordOf, type ColumnsState, type EntryRecord } from "./entry-columns.js";
import type { EntryLocation, EntryMeta, Spend } from "../format/entry-meta.js";
import { IdTable, sameAscii, type IdTableState } from "./id-table.js";
import type { SkimmedEntry } from "../skim/skimmed-entry.js";
import { asciiText } from "../skim/skim-bytes.js";
import type { SliceableBuffer } from "../scan/scanned-values.js";
import { MetasById } from "./metas-by-id.js";
import { analyseTree, type IndexedTree, type TreeStructure } from "./tree-structure.js";

const NO_CHILDREN: readonly EntryMeta[] = Object.freeze([]);

export class SessionIndex {
  /** Per-entry data (see entry-columns.ts); metas are made on demand. */
  private readonly columns: EntryColumns;
  /** Position of the entry with that id (for duplicate ids, the later one). */
  private readonly ids: IdTable;
  /**
   * Children positions in file order, by parent id (self-parented entries
   * excluded, as in pi); one child is stored bare. Built on first use: reading
   * a session for its context only needs the ids.
   */
  private childMap: Map<string, number | number[]> | null = null;
  private readonly sortedChildren = new Map<string, readonly EntryMeta[]>();
  private readonly labelMap: Map<string, string>;
  private readonly duplicateDiagnostics: Diagnostic[];
  private name: string | undefined = undefined;
  private structure: TreeStructure | null = null;
  private messages = 0;
  private activity = 0;
  private newest = 0;
  private newestCounted = 0;
  private readonly spent: Spend;
  private byIdView: ReadonlyMap<string, EntryMeta> | null = null;

  /** From metas, or from a state (an index snapshot's, checked by its loader; taken over, not copied). */
  constructor(metas: Iterable<EntryMeta> = [], state?: IndexState) {
    this.columns = state ? EntryColumns.fromState(state.columns) : new EntryColumns();
    this.ids = state ? IdTable.fromState(this.columns.ids, state.idTable) : new IdTable(this.columns.ids);
    this.labelMap = state?.labels ?? new Map();
    this.duplicateDiagnostics = state?.duplicateDiagnostics ?? [];
    this.name = state?.name;
    this.messages = state?.messages ?? 0;
    this.activity = state?.activity ?? 0;
    this.spent = state?.spent ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };
    this.ids.onDuplicate = (i, previousAt) => this.duplicate(i, previousAt);
    for (const m of metas) this.add(m);
  }

  /**
   * A read from scratch adds many entries before anyone looks one up: the id
   * table is filled when first read, or at settleIds() (id-table.ts defer).
   */
  deferIds(): void {
    this.ids.defer();
  }

  /** Ends deferIds: every id in the table, every duplicate reported. */
  settleIds(): void {
    this.ids.endDeferral();
  }

  /** Everything the index knows (views of its arrays, not copies: take it while nothing is added). */
  exportState(): IndexState {
    const columns = this.columns.exportState();
    return {
      columns,
      idTable: this.ids.exportState(columns.count),
      labels: this.labelMap,
      duplicateDiagnostics: this.duplicateDiagnostics,
      name: this.name,
      messages: this.messages,
      activity: this.activity,
      spent: this.spent,
    };
  }

  /** Room for `count` entries in all (a hint: the index still grows past it). */
  reserve(count: number): void {
    this.columns.reserve(count);
    this.ids.reserve(count);
  }

  /** Adds the next entry in file order (also used for a live tail); `meta.index` is ignored (it is the position). */
  add(meta: EntryMeta): void {
    this.addRecord(recordOf(meta));
  }

  /** Adds the next entry in file order from its fields (the reader's path: no meta object is kept). */
  addRecord(r: EntryRecord): void {
    const columns = this.columns;
    // The parent as the position of an entry with its id (only the id matters: any entry
    // with it will do); mostly the one just before (one string compare instead of a lookup).
    let parentAt = -1;
    if (r.parentId !== null) {
      const last = columns.size - 1;
      parentAt = last >= 0 && columns.ids[last] === r.parentId ? last : this.ids.get(r.parentId);
    }
    const i = columns.push(r, parentAt);
    this.added(i, this.ids.put(i));
    if (r.type === "label") {
      const target = r.rare?.targetId;
      if (target !== undefined) {
        if (r.rare!.label) this.labelMap.set(target, r.rare!.label);
        else this.labelMap.delete(target);
      }
    } else if (r.type === "session_info") {
      this.name = r.rare?.name?.trim() || undefined;
    }
  }

  /**
   * addRecord for a line skimPiLayout read into `m` from `b` (the
   * line's bytes, valid during this call): the same index, with no record
   * and no parentId string (the parent is found from its bytes).
   */
  addSkimmed(m: SkimmedEntry, b: SliceableBuffer, line: number, offset: number, length: number): void {
    const columns = this.columns;
    const id = asciiText(b, m.idStart, m.idEnd);
    let parentAt = -1;
    let parentText: string | undefined;
    if (m.parentStart >= 0) {
      const last = columns.size - 1;
      parentAt = last >= 0 && sameAscii(columns.ids[last]!, b, m.parentStart, m.parentEnd) ? last : this.ids.getBytes(b, m.parentStart, m.parentEnd, m.parentHash);
      if (parentAt < 0) parentText = b.latin1Slice(m.parentStart, m.parentEnd);
    }
    const i = columns.pushSkimmed(m, b, id, parentAt, parentText, line, offset, length);
    this.added(i, this.ids.putHashed(i, m.idHash));
  }

  /** Entry i reuses the id of entry `previousAt` (the latest before it). */
  private duplicate(i: number, previousAt: number): void {
    const columns = this.columns;
    const id = columns.ids[i]!;
    this.duplicateDiagnostics.push({
      severity: "warning",
      code: "duplicate-id",
      message: `id ${id} is used again (first on line ${columns.line(previousAt)}); lookups find this later entry, as in pi`,
      line: columns.line(i),
      entryId: id,
    });
  }

  /** What every new entry i updates (`previousAt`: the entry that had its id, or -1; always -1 while ids are deferred). */
  private added(i: number, previousAt: number): void {
    const columns = this.columns;
    if (previousAt >= 0) this.duplicate(i, previousAt);
    if (columns.types[i] === "message") this.messages++;
    const activity = columns.activityTime(i);
    if (activity !== undefined && activity > this.activity) this.activity = activity;
    columns.addSpend(i, this.spent);
    if (this.childMap !== null) this.addChild(this.childMap, i);
    this.structure = null;
  }

  private addChild(map: Map<string, number | number[]>, i: number): void {
    const parentId = this.columns.parentId(i);
    if (parentId === null || parentId === this.columns.ids[i]) return;
    const siblings = map.get(parentId);
    if (siblings === undefined) map.set(parentId, i);
    else if (typeof siblings !== "number") siblings.push(i);
    else map.set(parentId, [siblings, i]);
    if (this.sortedChildren.size > 0) this.sortedChildren.delete(parentId);
  }

  private get childLists(): Map<string, number | number[]> {
    if (this.childMap === null) {
      const map = new Map<string, number | number[]>();
      this.childMap = map;
      for (let i = 0; i < this.columns.size; i++) this.addChild(map, i);
    }
    return this.childMap;
  }

  /** An independent copy (for a refreshed session that appends to it). */
  clone(): SessionIndex {
    const copy = new SessionIndex();
    for (let i = 0; i < this.columns.size; i++) copy.add(this.columns.at(i));
    return copy;
  }

  /** All entries in file order (every meta is made: prefer `at`, `typeAt` and `size` on big sessions). */
  get entries(): readonly EntryMeta[] {
    return this.columns.all();
  }

  /** The entry at position i in file order (0 ≤ i < size). */
  at(i: number): EntryMeta {
    if (i < 0 || i >= this.columns.size) throw new RangeError(`no entry at ${i}`);
    return this.columns.at(i);
  }

  /** The id of the entry at position i, without making its meta. */
  idAt(i: number): string {
    return this.columns.ids[i]!;
  }

  /** The type of the entry at position i, without making its meta. */
  typeAt(i: number): string {
    return this.columns.types[i]!;
  }

  /** Where the line of the entry at position i is (byte offset, byte length), without making its meta. */
  offsetAt(i: number): number {
    return this.columns.offset(i);
  }

  lengthAt(i: number): number {
    return this.columns.length(i);
  }

  /** The entry's id and line at position i, as a new object (its meta is not made, so nothing is kept). */
  locationAt(i: number): EntryLocation {
    const columns = this.columns;
    return { id: columns.ids[i]!, line: columns.line(i), offset: columns.offset(i), length: columns.length(i) };
  }

  /** The message role of the entry at position i, without making its meta. */
  roleAt(i: number): string | undefined {
    return this.columns.role(i);
  }

  get size(): number {
    return this.columns.size;
  }

  /** How many entries' metas the index has made and keeps (asked for by `at`, `get`, `entries`, …; reading bodies makes none). */
  get metasMade(): number {
    return this.columns.metasMade;
  }

  /** `message` entries, as pi's session list counts them. */
  get messageCount(): number {
    return this.messages;
  }

  /** The latest user/assistant activity time (ms), 0 when none (pi's getSessionModifiedDate input). */
  get lastActivityTime(): number {
    return this.activity;
  }

  /**
   * The newest entry timestamp (ms) of any entry, ours included (labels, names,
   * compactions), 0 when none: with the file's mtime, a session's last activity
   * (last-activity.ts). Counted on demand over the timestamps column.
   */
  get newestEntryTime(): number {
    const size = this.columns.size;
    if (this.newestCounted < size) {
      this.newest = this.columns.newestTime(this.newestCounted, size, this.newest);
      this.newestCounted = size;
    }
    return this.newest;
  }

  /** Tokens and cost of the whole file, as pi 1.5 totals them (every entry's `spend`). */
  get totalSpend(): Readonly<Spend> {
    return this.spent;
  }

  /** How many entries reused an earlier id (a change here can move lookups already made). */
  get duplicateCount(): number {
    this.ids.settle();
    return this.duplicateDiagnostics.length;
  }

  /** Lookup by id; for duplicate ids the later entry, as pi's Map.set gives. */
  get byId(): ReadonlyMap<string, EntryMeta> {
    return (this.byIdView ??= new MetasById(this.ids, this.columns));
  }

  get(id: string): EntryMeta | undefined {
    const i = this.ids.get(id);
    return i < 0 ? undefined : this.columns.at(i);
  }

  has(id: string): boolean {
    return this.ids.get(id) >= 0;
  }

  /** The position of the entry with that id (the later one for a repeated id), -1 when none; no meta is made. */
  positionOf(id: string): number {
    return this.ids.get(id);
  }

  /** The current leaf on load: the last entry in file order, as pi. */
  get leafId(): string | null {
    const n = this.columns.size;
    return n > 0 ? this.columns.ids[n - 1]! : null;
  }

  /** Children in pi's getTree order: file order, stable-sorted oldest first. */
  children(parentId: string): readonly EntryMeta[] {
    const cached = this.sortedChildren.get(parentId);
    if (cached) return cached;
    const raw = this.childLists.get(parentId);
    if (raw === undefined) return NO_CHILDREN;
    if (typeof raw === "number") return [this.columns.at(raw)];
    // pi's comparator, `new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime()`
    // (NaN compares as equal), on the same input order, so the same stable result.
    const times = new Map(raw.map((i) => [i, this.columns.sortTime(i)]));
    const sorted = [...raw].sort((a, b) => times.get(a)! - times.get(b)!).map((i) => this.columns.at(i));
    this.sortedChildren.set(parentId, sorted);
    return sorted;
  }

  childCount(parentId: string): number {
    const raw = this.childLists.get(parentId);
    return raw === undefined ? 0 : typeof raw === "number" ? 1 : raw.length;
  }

  /** pi's getTree roots in file order: parentId null, parentId === id, or a missing parent. */
  get roots(): readonly EntryMeta[] {
    return this.analyse().roots;
  }

  /** Entries whose parent does not exist (pi shows them as roots). */
  get orphans(): readonly EntryMeta[] {
    return this.analyse().orphans;
  }

  /** Entries in or below a parent cycle: no root reaches them, so pi's getTree drops them. */
  get unreachable(): readonly EntryMeta[] {
    return this.analyse().unreachable;
  }

  /** Entries with more than one child, in file order. */
  get branchPoints(): readonly EntryMeta[] {
    return this.analyse().branchPoints;
  }

  /** Label of an entry (last label entry wins; an empty one clears). */
  labelOf(id: string): string | undefined {
    return this.labelMap.get(id);
  }

  get labels(): ReadonlyMap<string, string> {
    return this.labelMap;
  }

  /** pi's getSessionName: the last session_info's name, trimmed; empty clears. */
  get sessionName(): string | undefined {
    return this.name;
  }

  /**
   * Ids from the root down to `leafId`, walking parentId as pi's getBranch does
   * (a falsy parentId or a missing parent ends the walk). A cycle ends the walk
   * before the first repeated entry instead of looping.
   */
  pathIds(leafId: string): string[] {
    const ids = this.columns.ids;
    return this.pathPositions(leafId).map((i) => ids[i]!);
  }

  /** pathIds as entry positions, root first. */
  pathPositions(leafId: string): number[] {
    const path: number[] = [];
    const seen = new Set<number>();
    let current = this.ids.get(leafId);
    while (current >= 0 && !seen.has(current)) {
      seen.add(current);
      path.push(current);
      current = this.parentPositionOf(current);
    }
    return path.reverse();
  }

  /** Where pi's getBranch goes from entry i: the latest entry with its parentId, -1 when none (or a falsy parentId). */
  parentPositionOf(i: number): number {
    this.ids.settle();
    const columns = this.columns;
    const at = columns.parentAt(i);
    if (at >= 0) {
      // Without duplicate ids the entry the parent was resolved to is the only one with that id.
      const id = columns.ids[at]!;
      return id === "" ? -1 : this.duplicateDiagnostics.length === 0 ? at : this.ids.get(id);
    }
    const parentId = columns.parentId(i);
    return parentId ? this.ids.get(parentId) : -1;
  }

  /** Problems in the tree: duplicate ids, self-parents, dangling parents, cycles, unknown label targets. */
  get diagnostics(): readonly Diagnostic[] {
    return this.analyse().diagnostics;
  }

  private analyse(): TreeStructure {
    if (this.structure) return this.structure;
    this.ids.settle();
    const tree: IndexedTree = {
      columns: this.columns,
      ids: this.ids,
      duplicateDiagnostics: this.duplicateDiagnostics,
      childLists: () => this.childLists,
    };
    return (this.structure = analyseTree(tree));
  }
}

/** A SessionIndex's own state (caches excluded: they are rebuilt on use). */
export interface IndexState {
  columns: ColumnsState;
  idTable: IdTableState;
  labels: Map<string, string>;
  duplicateDiagnostics: Diagnostic[];
  name: string | undefined;
  messages: number;
  activity: number;
  spent: Spend;
}
