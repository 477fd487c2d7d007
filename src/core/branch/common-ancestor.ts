/**
 * pi's common ancestor (branch-summarization.js): the deepest entry of
 * `targetPath` (root→target) that is also on `oldPath`; null when none is.
 */
export function findCommonAncestor(
  oldPath: readonly { id: string }[],
  targetPath: readonly { id: string }[],
): string | null {
  const oldIds = new Set(oldPath.map((e) => e.id));
  for (let i = targetPath.length - 1; i >= 0; i--) {
    const id = targetPath[i]!.id;
    if (oldIds.has(id)) return id;
  }
  return null;
}
