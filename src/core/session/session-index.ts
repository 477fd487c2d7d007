// The tree of a session, from metas only (bodies stay in the file). Mirrors
// pi 0.73's SessionManager: byId where a later duplicate wins, getTree's roots
// (parentId null, parentId === id, or a parent that does not exist) and child
// order (stable sort by `new Date(timestamp).getTime()`), leaf = last entry,
// labels and session name as _buildIndex / getSessionName compute them. Unlike
// pi it never loops on a parent cycle.

import type { Diagnostic } from "../diagnostics.js";
import type { EntryMeta, Spend } from "./entry-meta.js";
import { timeOf } from "./meta-from-fields.js";

const NO_CHILDREN: readonly EntryMeta[] = Object.freeze([]);

export class SessionIndex {
  private readonly list: EntryMeta[];
  private readonly ids: Map<string, EntryMeta>;
  /**
   * Children in file order, by parent id (self-parented entries excluded, as in pi);
   * one child is stored bare. Built on first use: reading a session for its
   * context only needs byId.
   */
  private childMap: Map<string, EntryMeta | EntryMeta[]> | null = null;
  private readonly sortedChildren = new Map<string, readonly EntryMeta[]>();
  private readonly labelMap: Map<string, string>;
  private readonly duplicateDiagnostics: Diagnostic[];
  private name: string | undefined;
  private structure: Structure | null = null;
  private messages = 0;
  private activity = 0;
  private readonly spent: Spend = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0 };

  constructor(metas: Iterable<EntryMeta> = []) {
    this.list = [];
    this.ids = new Map();
    this.labelMap = new Map();
    this.duplicateDiagnostics = [];
    this.name = undefined;
    for (const m of metas) this.add(m);
  }

  /** Adds the next entry in file order (also used for a live tail). */
  add(meta: EntryMeta): void {
    const previous = this.ids.get(meta.id);
    if (previous) {
      this.duplicateDiagnostics.push({
        severity: "warning",
        code: "duplicate-id",
        message: `id ${meta.id} is used again (first on line ${previous.line}); lookups find this later entry, as in pi`,
        line: meta.line,
        entryId: meta.id,
      });
    }
    // The parent's own id string instead of a second copy of it (one string less per entry).
    if (meta.parentId !== null) {
      // Only the string is shared, so any entry with that id will do; mostly the one
      // just before (one string compare instead of a lookup).
      const previous = this.list.length > 0 ? this.list[this.list.length - 1]! : undefined;
      const parent = previous !== undefined && previous.id === meta.parentId ? previous : this.ids.get(meta.parentId);
      if (parent) meta.parentId = parent.id;
    }
    this.list.push(meta);
    this.ids.set(meta.id, meta);
    if (meta.type === "message") this.messages++;
    if (meta.activityTime !== undefined && meta.activityTime > this.activity) this.activity = meta.activityTime;
    if (meta.spend !== undefined) {
      const s = meta.spend;
      this.spent.input += s.input;
      this.spent.output += s.output;
      this.spent.cacheRead += s.cacheRead;
      this.spent.cacheWrite += s.cacheWrite;
      this.spent.cost += s.cost;
    }
    if (this.childMap !== null) this.addChild(this.childMap, meta);
    if (meta.type === "label" && meta.targetId !== undefined) {
      if (meta.label) this.labelMap.set(meta.targetId, meta.label);
      else this.labelMap.delete(meta.targetId);
    } else if (meta.type === "session_info") {
      this.name = meta.name?.trim() || undefined;
    }
    this.structure = null;
  }

  private addChild(map: Map<string, EntryMeta | EntryMeta[]>, meta: EntryMeta): void {
    if (meta.parentId === null || meta.parentId === meta.id) return;
    const siblings = map.get(meta.parentId);
    if (siblings === undefined) map.set(meta.parentId, meta);
    else if (Array.isArray(siblings)) siblings.push(meta);
    else map.set(meta.parentId, [siblings, meta]);
    if (this.sortedChildren.size > 0) this.sortedChildren.delete(meta.parentId);
  }

  private get childLists(): Map<string, EntryMeta | EntryMeta[]> {
    if (this.childMap === null) {
      const map = new Map<string, EntryMeta | EntryMeta[]>();
      this.childMap = map;
      for (const m of this.list) this.addChild(map, m);
    }
    return this.childMap;
  }

  /** An independent copy (for a refreshed session that appends to it). */
  clone(): SessionIndex {
    const copy = new SessionIndex();
    for (const m of this.list) copy.add(m);
    return copy;
  }

  /** All entries in file order. */
  get entries(): readonly EntryMeta[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  /** `message` entries, as pi's session list counts them. */
  get messageCount(): number {
    return this.messages;
  }

  /** The latest user/assistant activity time (ms), 0 when none (pi's getSessionModifiedDate input). */
  get lastActivityTime(): number {
    return this.activity;
  }

  /** Tokens and cost of the whole file, as pi 1.5 totals them (every entry's `spend`). */
  get totalSpend(): Readonly<Spend> {
    return this.spent;
  }

  /** How many entries reused an earlier id (a change here can move lookups already made). */
  get duplicateCount(): number {
    return this.duplicateDiagnostics.length;
  }

  /** Lookup by id; for duplicate ids the later entry, as pi's Map.set gives. */
  get byId(): ReadonlyMap<string, EntryMeta> {
    return this.ids;
  }

  get(id: string): EntryMeta | undefined {
    return this.ids.get(id);
  }

  /** The current leaf on load: the last entry in file order, as pi. */
  get leafId(): string | null {
    return this.list.length > 0 ? this.list[this.list.length - 1]!.id : null;
  }

  /** Children in pi's getTree order: file order, stable-sorted oldest first. */
  children(parentId: string): readonly EntryMeta[] {
    const cached = this.sortedChildren.get(parentId);
    if (cached) return cached;
    const raw = this.childLists.get(parentId);
    if (raw === undefined) return NO_CHILDREN;
    if (!Array.isArray(raw)) return [raw];
    // pi's comparator, `new Date(a.timestamp).getTime() - new Date(b.timestamp).getTime()`
    // (NaN compares as equal), on the same input order, so the same stable result.
    const times = new Map(raw.map((m) => [m, timeOf("timestampValue" in m ? m.timestampValue : m.timestamp)]));
    const sorted = [...raw].sort((a, b) => times.get(a)! - times.get(b)!);
    this.sortedChildren.set(parentId, sorted);
    return sorted;
  }

  childCount(parentId: string): number {
    const raw = this.childLists.get(parentId);
    return raw === undefined ? 0 : Array.isArray(raw) ? raw.length : 1;
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
    const path: string[] = [];
    const seen = new Set<EntryMeta>();
    let current = this.ids.get(leafId);
    while (current && !seen.has(current)) {
      seen.add(current);
      path.push(current.id);
      current = current.parentId ? this.ids.get(current.parentId) : undefined;
    }
    return path.reverse();
  }

  /** Problems in the tree: duplicate ids, self-parents, dangling parents, cycles, unknown label targets. */
  get diagnostics(): readonly Diagnostic[] {
    return this.analyse().diagnostics;
  }

  private analyse(): Structure {
    if (this.structure) return this.structure;
    const roots: EntryMeta[] = [];
    const orphans: EntryMeta[] = [];
    const branchPoints: EntryMeta[] = [];
    const diagnostics: Diagnostic[] = [...this.duplicateDiagnostics];
    for (const m of this.list) {
      if (m.parentId === null) {
        roots.push(m);
      } else if (m.parentId === m.id) {
        roots.push(m);
        diagnostics.push({
          severity: "warning",
          code: "self-parent",
          message: `entry ${m.id} is its own parent; shown as a root (pi would loop on it)`,
          line: m.line,
          entryId: m.id,
        });
      } else if (!this.ids.has(m.parentId)) {
        roots.push(m);
        orphans.push(m);
        diagnostics.push({
          severity: "warning",
          code: "dangling-parent",
          message: `entry ${m.id} has parent ${m.parentId}, which is not in the file; shown as a root`,
          line: m.line,
          entryId: m.id,
        });
      }
      if (this.ids.get(m.id) === m && this.childCount(m.id) > 1) branchPoints.push(m);
      if (m.type === "label" && m.targetId !== undefined && !this.ids.has(m.targetId)) {
        diagnostics.push({
          severity: "warning",
          code: "unknown-label-target",
          message: `label entry ${m.id} points at ${m.targetId}, which is not in the file`,
          line: m.line,
          entryId: m.id,
        });
      }
    }
    const unreachable = this.findUnreachable(roots, diagnostics);
    this.structure = { roots, orphans, branchPoints, unreachable, diagnostics };
    return this.structure;
  }

  /** Entries no root reaches through children; reports each parent cycle once. */
  private findUnreachable(roots: readonly EntryMeta[], diagnostics: Diagnostic[]): EntryMeta[] {
    const reached = new Set<EntryMeta>();
    const stack: EntryMeta[] = [...roots];
    while (stack.length > 0) {
      const m = stack.pop()!;
      if (reached.has(m)) continue;
      reached.add(m);
      const kids = this.childLists.get(m.id);
      if (kids === undefined) continue;
      if (!Array.isArray(kids)) stack.push(kids);
      else for (const k of kids) if (!reached.has(k)) stack.push(k);
    }
    if (reached.size === this.list.length) return [];
    const unreachable = this.list.filter((m) => !reached.has(m));
    const reported = new Set<EntryMeta>();
    for (const start of unreachable) {
      if (reported.has(start)) continue;
      // Walk up until an entry repeats: that entry is on the cycle.
      const walk: EntryMeta[] = [];
      const onWalk = new Set<EntryMeta>();
      let current: EntryMeta | undefined = start;
      while (current && !onWalk.has(current) && !reported.has(current)) {
        onWalk.add(current);
        walk.push(current);
        current = current.parentId !== null ? this.ids.get(current.parentId) : undefined;
      }
      for (const m of walk) reported.add(m);
      if (!current || !onWalk.has(current)) continue;
      const cycle = walk.slice(walk.indexOf(current));
      const first = cycle.reduce((a, b) => (b.line < a.line ? b : a));
      diagnostics.push({
        severity: "error",
        code: "parent-cycle",
        message: `parent cycle: ${cycle.map((m) => m.id).join(" → ")} → ${cycle[0]!.id}; these entries and their descendants are unreachable from any root (pi would loop on them)`,
        line: first.line,
        entryId: first.id,
      });
    }
    return unreachable;
  }
}

interface Structure {
  roots: EntryMeta[];
  orphans: EntryMeta[];
  branchPoints: EntryMeta[];
  unreachable: EntryMeta[];
  diagnostics: Diagnostic[];
}
