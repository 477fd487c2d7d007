// The shape of a session's tree as pi's getTree sees it — roots (parentId
// null, parentId === id, or a missing parent), orphans, branch points, entries
// no root reaches (parent cycles) — and the diagnostics about it, from the
// index's columns alone.

import type { Diagnostic } from "../../diagnostics.js";
import type { EntryColumns } from "./entry-columns.js";
import type { EntryMeta } from "../format/entry-meta.js";
import type { IdTable } from "./id-table.js";

export interface TreeStructure {
  roots: EntryMeta[];
  orphans: EntryMeta[];
  branchPoints: EntryMeta[];
  unreachable: EntryMeta[];
  diagnostics: Diagnostic[];
}

/** What the analysis reads from a SessionIndex. */
export interface IndexedTree {
  readonly columns: EntryColumns;
  /** Position of the entry with an id (the later one for duplicates), -1 when none. */
  readonly ids: IdTable;
  readonly duplicateDiagnostics: readonly Diagnostic[];
  /** Children positions in file order by parent id (self-parents excluded); one child stored bare. */
  childLists(): Map<string, number | number[]>;
}

export function analyseTree(tree: IndexedTree): TreeStructure {
  return tree.duplicateDiagnostics.length === 0 ? analyseTreeUnique(tree) : analyseTreeGeneral(tree);
}

/** The general analysis: children by id (any ids, duplicates included). */
export function analyseTreeGeneral(tree: IndexedTree): TreeStructure {
  const roots: number[] = [];
  const orphans: EntryMeta[] = [];
  const branchPoints: EntryMeta[] = [];
  const diagnostics: Diagnostic[] = [...tree.duplicateDiagnostics];
  const { ids, types } = tree.columns;
  const children = tree.childLists();
  for (let i = 0; i < tree.columns.size; i++) {
    const id = ids[i]!;
    const parentId = tree.columns.parentId(i);
    if (parentId === null) {
      roots.push(i);
    } else if (parentId === id) {
      roots.push(i);
      diagnostics.push({
        severity: "warning",
        code: "self-parent",
        message: `entry ${id} is its own parent; shown as a root (pi would loop on it)`,
        line: tree.columns.line(i),
        entryId: id,
      });
    } else if (tree.ids.get(parentId) < 0) {
      roots.push(i);
      orphans.push(tree.columns.at(i));
      diagnostics.push({
        severity: "warning",
        code: "dangling-parent",
        message: `entry ${id} has parent ${parentId}, which is not in the file; shown as a root`,
        line: tree.columns.line(i),
        entryId: id,
      });
    }
    const kids = children.get(id);
    if (kids !== undefined && typeof kids !== "number" && tree.ids.get(id) === i) branchPoints.push(tree.columns.at(i));
    const targetId = types[i] === "label" ? tree.columns.rareOf(i)?.targetId : undefined;
    if (targetId !== undefined && tree.ids.get(targetId) < 0) {
      diagnostics.push({
        severity: "warning",
        code: "unknown-label-target",
        message: `label entry ${id} points at ${targetId}, which is not in the file`,
        line: tree.columns.line(i),
        entryId: id,
      });
    }
  }
  const unreachable = findUnreachable(tree, roots, diagnostics);
return { roots: roots.map((i) => tree.columns.at(i)), orphans, branchPoints, unreachable, diagnostics };
}

/**
 * analyse() when no id repeats: then an entry's parent is one position, so
 * children are counted per position and reachability follows parents, with
 * no map of children by id (the same roots, branch points and diagnostics, in
 * the same order). Only a tree with unreachable entries takes the general walk.
 */
export function analyseTreeUnique(tree: IndexedTree): TreeStructure {
  const columns = tree.columns;
  const size = columns.size;
  const { ids, types } = columns;
  const roots: number[] = [];
  const orphans: EntryMeta[] = [];
  const diagnostics: Diagnostic[] = [];
  const parentOf = new Int32Array(size);
  const childCount = new Uint32Array(size);
  for (let i = 0; i < size; i++) {
    const id = ids[i]!;
    let parent = columns.parentAt(i);
    if (parent === -1) {
      roots.push(i);
    } else if (parent < 0) {
      // No earlier entry has the parent's id (with unique ids, an earlier entry is never this one).
      const parentId = columns.parentId(i)!;
      if (parentId === id) {
        parent = -1;
        roots.push(i);
        diagnostics.push({
          severity: "warning",
          code: "self-parent",
          message: `entry ${id} is its own parent; shown as a root (pi would loop on it)`,
          line: columns.line(i),
          entryId: id,
        });
      } else {
        parent = tree.ids.get(parentId);
        if (parent < 0) {
          roots.push(i);
          orphans.push(columns.at(i));
          diagnostics.push({
            severity: "warning",
            code: "dangling-parent",
            message: `entry ${id} has parent ${parentId}, which is not in the file; shown as a root`,
            line: columns.line(i),
            entryId: id,
          });
        }
      }
    }
    parentOf[i] = parent;
    if (parent >= 0) childCount[parent]++;
    const targetId = types[i] === "label" ? columns.rareOf(i)?.targetId : undefined;
    if (targetId !== undefined && tree.ids.get(targetId) < 0) {
      diagnostics.push({
        severity: "warning",
        code: "unknown-label-target",
        message: `label entry ${id} points at ${targetId}, which is not in the file`,
        line: columns.line(i),
        entryId: id,
      });
    }
  }
  const branchPoints: EntryMeta[] = [];
  for (let i = 0; i < size; i++) if (childCount[i]! > 1) branchPoints.push(columns.at(i));
  const unreachable = allReachable(parentOf) ? [] : findUnreachable(tree, roots, diagnostics);
  return { roots: roots.map((i) => columns.at(i)), orphans, branchPoints, unreachable, diagnostics };
}

/** Entries no root reaches through children; reports each parent cycle once. */
function findUnreachable(tree: IndexedTree, roots: readonly number[], diagnostics: Diagnostic[]): EntryMeta[] {
  const size = tree.columns.size;
  const ids = tree.columns.ids;
  const reached = new Uint8Array(size);
  let reachedCount = 0;
  const stack: number[] = [...roots];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (reached[i] === 1) continue;
    reached[i] = 1;
    reachedCount++;
    const kids = tree.childLists().get(ids[i]!);
    if (kids === undefined) continue;
    if (typeof kids === "number") stack.push(kids);
    else for (const k of kids) if (reached[k] === 0) stack.push(k);
  }
  if (reachedCount === size) return [];
  const unreachable: number[] = [];
  for (let i = 0; i < size; i++) if (reached[i] === 0) unreachable.push(i);
  const reported = new Uint8Array(size);
  for (const start of unreachable) {
    if (reported[start] === 1) continue;
    // Walk up until an entry repeats: that entry is on the cycle.
    const walk: number[] = [];
    const onWalk = new Set<number>();
    let current = start;
    while (current >= 0 && !onWalk.has(current) && reported[current] === 0) {
      onWalk.add(current);
      walk.push(current);
      const parentId = tree.columns.parentId(current);
      current = parentId !== null ? tree.ids.get(parentId) : -1;
    }
    for (const i of walk) reported[i] = 1;
    if (current < 0 || !onWalk.has(current)) continue;
    const cycle = walk.slice(walk.indexOf(current));
    const first = cycle.reduce((a, b) => (tree.columns.line(b) < tree.columns.line(a) ? b : a));
    diagnostics.push({
      severity: "error",
      code: "parent-cycle",
      message: `parent cycle: ${cycle.map((i) => ids[i]).join(" → ")} → ${ids[cycle[0]!]}; these entries and their descendants are unreachable from any root (pi would loop on them)`,
      line: tree.columns.line(first),
      entryId: ids[first],
    });
  }
  return unreachable.map((i) => tree.columns.at(i));
}


const UNKNOWN = 0;
const REACHED = 1;
const UNREACHED = 2;
const ON_WALK = 3;

/** Whether every entry's parent chain (parentOf: a position, or -1 at a root) ends at a root. */
function allReachable(parentOf: Int32Array): boolean {
  const state = new Uint8Array(parentOf.length);
  const walk: number[] = [];
  for (let i = 0; i < parentOf.length; i++) {
    let current = i;
    while (current >= 0 && state[current] === UNKNOWN) {
      state[current] = ON_WALK;
      walk.push(current);
      current = parentOf[current]!;
    }
    const result = current < 0 || state[current] === REACHED ? REACHED : UNREACHED;
    for (const k of walk) state[k] = result;
    walk.length = 0;
    if (result === UNREACHED) return false;
  }
  return true;
}
