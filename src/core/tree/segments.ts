// Long linear runs are shown flat, the way pi's /tree does: a new level of
// nesting starts only where the tree branches.

export interface TreeShape {
  /** Ids of the children of `id`, in display order (pi's getTree order). */
  childIds(id: string): readonly string[];
}

/**
 * The run that starts at `startId`: it and its only child, and that one's only
 * child, … ending at an entry with no child or with several (a branch point).
 * Cycle-safe.
 */
export function linearRun(tree: TreeShape, startId: string): string[] {
  const run = [startId];
  const seen = new Set(run);
  let current = startId;
  for (;;) {
    const kids = tree.childIds(current);
    if (kids.length !== 1) return run;
    const next = kids[0]!;
    if (seen.has(next)) return run;
    seen.add(next);
    run.push(next);
    current = next;
  }
}

export interface DisplayRow {
  id: string;
  /** Nesting level: increases by one below each branch point. */
  depth: number;
  /** Number of children (more than one: a branch point). */
  childCount: number;
}

/** Every entry reachable from the roots, depth-first, with branch-point nesting. */
export function displayRows(tree: TreeShape, rootIds: readonly string[]): DisplayRow[] {
  const rows: DisplayRow[] = [];
  const seen = new Set<string>();
  const stack: { id: string; depth: number }[] = [];
  for (let i = rootIds.length - 1; i >= 0; i--) stack.push({ id: rootIds[i]!, depth: rootIds.length > 1 ? 1 : 0 });
  while (stack.length > 0) {
    const { id, depth } = stack.pop()!;
    for (const runId of linearRun(tree, id)) {
      if (seen.has(runId)) break;
      seen.add(runId);
      const kids = tree.childIds(runId);
      rows.push({ id: runId, depth, childCount: kids.length });
      if (kids.length > 1) {
        for (let k = kids.length - 1; k >= 0; k--) stack.push({ id: kids[k]!, depth: depth + 1 });
      }
    }
  }
  return rows;
}
