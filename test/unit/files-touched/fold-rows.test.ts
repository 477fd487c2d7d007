// Folding a files list by folder: counts, the union of the ops letters, a
// folder of one file shown as the file, absolute paths, and the last level.

import { describe, expect, it } from "vitest";
import { foldLevels, foldRows, formatFoldRow } from "../../../src/core/files-touched/index.js";

const items = [
  { displayPath: "src/a/x.ts", ops: "R" },
  { displayPath: "src/a/y.ts", ops: "W" },
  { displayPath: "src/b/z.ts", ops: "E" },
  { displayPath: "README.md", ops: "R" },
  { displayPath: "/etc/hosts", ops: "R" },
  { displayPath: "/etc/passwd", ops: "RD" },
];

describe("foldRows", () => {
  it("levels run from no fold to one row", () => {
    expect(foldLevels(items)).toEqual([2, 1, 0, "all"]);
  });

  it("no fold at the deepest level", () => {
    expect(foldRows(items, 2).map((r) => formatFoldRow(r, true))).toEqual(items.map((i) => `${i.ops.padEnd(2)} ${i.displayPath}`));
  });

  it("level 1: folders of two or more files fold with counts and the union of their letters, in first-seen order", () => {
    expect(foldRows(items, 1).map((r) => formatFoldRow(r, true))).toEqual(["RWE src/ (3 files)", "R  README.md", "RD / (2 files)"]);
    // src/b holds one file: at level 2 it is named, never "src/b/ (1 files)".
    expect(foldRows(items.slice(0, 3), 1).map((r) => r.label)).toEqual(["src/"]);
  });

  it("a folder holding one file shows the file", () => {
    expect(foldRows([{ displayPath: "a/b/c.ts", ops: "W" }, { displayPath: "d.ts", ops: "R" }], 0).map((r) => formatFoldRow(r, true))).toEqual(["W  a/b/c.ts", "R  d.ts"]);
  });

  it("level 0 keeps top-level files named; 'all' is one row covering everything", () => {
    expect(foldRows(items, 0).map((r) => formatFoldRow(r, false))).toEqual(["./ (5 files)", "README.md"]);
    expect(foldRows(items, "all").map((r) => formatFoldRow(r, true))).toEqual(["RWED ./ (6 files)"]);
    expect(foldRows([], "all")).toEqual([]);
  });
});
