import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { EntryMeta } from "../../../src/core/session/format/entry-meta.js";
import { SessionIndex } from "../../../src/core/session/index/session-index.js";
import { analyseTreeGeneral, analyseTreeUnique, type IndexedTree, type TreeStructure } from "../../../src/core/session/index/tree-structure.js";

const IDS = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"];

/** The index's own view of its tree (private members, read here to run both analyses on one index). */
function treeOf(index: SessionIndex): IndexedTree {
  const inner = index as unknown as { columns: IndexedTree["columns"]; ids: IndexedTree["ids"]; duplicateDiagnostics: IndexedTree["duplicateDiagnostics"]; childLists: Map<string, number | number[]> };
  return { columns: inner.columns, ids: inner.ids, duplicateDiagnostics: inner.duplicateDiagnostics, childLists: () => inner.childLists };
}

function shown(s: { [K in keyof TreeStructure]: readonly TreeStructure[K][number][] }) {
  const ids = (metas: readonly EntryMeta[]) => metas.map((m) => `${m.id}@${m.line}`);
  return { roots: ids(s.roots), orphans: ids(s.orphans), branchPoints: ids(s.branchPoints), unreachable: ids(s.unreachable), diagnostics: s.diagnostics };
}

/** Unique ids in a shuffled order; parents mostly among them, anywhere (earlier, later, itself, missing, null, ""); labels with any target. */
const uniqueTree = fc
  .array(
    fc.record({
      parent: fc.oneof({ weight: 6, arbitrary: fc.nat() }, fc.constant(null), fc.constant("missing"), fc.constant("")),
      label: fc.option(fc.constantFrom(...IDS, "zz"), { nil: undefined }),
    }),
    { maxLength: IDS.length },
  )
  .chain((entries) => fc.shuffledSubarray(IDS, { minLength: entries.length, maxLength: entries.length }).map((ids) => ({ entries, ids })))
  .map(({ entries, ids }) =>
    entries.map((e, k): EntryMeta => ({
      line: k + 2,
      offset: k * 100,
      length: 99,
      index: k,
      type: e.label === undefined ? "message" : "label",
      id: ids[k]!,
      parentId: typeof e.parent === "number" ? ids[e.parent % ids.length]! : e.parent,
      timestamp: "2025-01-01T00:00:00.000Z",
      ...(e.label === undefined ? {} : { targetId: e.label, label: "L" }),
    })),
  );

describe("tree structure", () => {
  it("without duplicate ids, the walk over parent positions gives the general analysis (roots, orphans, branch points, unreachable, diagnostics in order)", () => {
    let cycles = 0;
    let branches = 0;
    fc.assert(
      fc.property(uniqueTree, (metas) => {
        const index = new SessionIndex(metas);
        const tree = treeOf(index);
        expect(tree.duplicateDiagnostics).toEqual([]);
        const general = analyseTreeGeneral(tree);
        if (general.unreachable.length > 0) cycles++;
        if (general.branchPoints.length > 0) branches++;
        expect(shown(analyseTreeUnique(tree))).toEqual(shown(general));
        expect(shown({ roots: index.roots, orphans: index.orphans, branchPoints: index.branchPoints, unreachable: index.unreachable, diagnostics: [...index.diagnostics] })).toEqual(shown(general));
      }),
      { numRuns: 1500 },
    );
    // The generator reaches the cases the walk must get right.
    expect(cycles).toBeGreaterThan(50);
    expect(branches).toBeGreaterThan(50);
  });

  it("the same after appends (a parent arriving after its child, a branch growing)", () => {
    fc.assert(
      fc.property(uniqueTree, fc.nat(), (metas, cut) => {
        const at = metas.length === 0 ? 0 : cut % metas.length;
        const index = new SessionIndex(metas.slice(0, at));
        void index.diagnostics;
        for (const m of metas.slice(at)) index.add(m);
        const tree = treeOf(index);
        expect(shown({ roots: index.roots, orphans: index.orphans, branchPoints: index.branchPoints, unreachable: index.unreachable, diagnostics: [...index.diagnostics] })).toEqual(shown(analyseTreeGeneral(tree)));
      }),
      { numRuns: 500 },
    );
  });
});
