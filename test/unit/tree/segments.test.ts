import { describe, expect, it } from "vitest";
import { displayRows, linearRun, type TreeShape } from "../../../src/core/tree/segments";

function shape(edges: Record<string, string[]>): TreeShape {
  return { childIds: (id) => edges[id] ?? [] };
}

describe("linearRun", () => {
  it("follows single children and stops at a branch point, including it", () => {
    const tree = shape({ a: ["b"], b: ["c"], c: ["d", "e"], d: ["f"] });
    expect(linearRun(tree, "a")).toEqual(["a", "b", "c"]);
    expect(linearRun(tree, "d")).toEqual(["d", "f"]);
  });

  it("terminates on a parent cycle", () => {
    const tree = shape({ a: ["b"], b: ["a"] });
    expect(linearRun(tree, "a")).toEqual(["a", "b"]);
  });
});

describe("displayRows", () => {
  it("keeps a linear session at depth 0 however long it is", () => {
    const edges: Record<string, string[]> = {};
    for (let i = 0; i < 5000; i++) edges[`n${i}`] = [`n${i + 1}`];
    const rows = displayRows(shape(edges), ["n0"]);
    expect(rows).toHaveLength(5001);
    expect(new Set(rows.map((r) => r.depth))).toEqual(new Set([0]));
  });

  it("nests one level below each branch point, depth-first in child order", () => {
    const tree = shape({ r: ["a"], a: ["b1", "c1"], b1: ["b2"], c1: ["c2", "d1"] });
    const rows = displayRows(tree, ["r"]);
    expect(rows.map((r) => `${r.id}@${r.depth}`)).toEqual(["r@0", "a@0", "b1@1", "b2@1", "c1@1", "c2@2", "d1@2"]);
    expect(rows.find((r) => r.id === "a")?.childCount).toBe(2);
  });

  it("indents several roots (orphans) one level so they read as separate trees", () => {
    const rows = displayRows(shape({ r1: ["x"] }), ["r1", "r2"]);
    expect(rows.map((r) => `${r.id}@${r.depth}`)).toEqual(["r1@1", "x@1", "r2@1"]);
  });

  it("shows a node reachable twice only once", () => {
    const rows = displayRows(shape({ r: ["a", "b"], a: ["c"], b: ["c"] }), ["r"]);
    expect(rows.filter((r) => r.id === "c")).toHaveLength(1);
  });
});
