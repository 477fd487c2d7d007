// The shape of src/ holds: no import circle between files, every file in a
// room of the layer order, and every import between rooms runs down the floors.

import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importCircles, importGraph, type ImportGraph } from "../../support/import-graph";
import { floorOf, roomOf } from "../../support/source-layers";

const root = fileURLToPath(new URL("../../..", import.meta.url));

/** Imports between rooms that do not run down the floors, as "from → to (rooms)". */
export function layerViolations(graph: ImportGraph): string[] {
  const out: string[] = [];
  for (const e of graph.edges) {
    const a = roomOf(e.from);
    const b = roomOf(e.to);
    if (!a || !b || a === b) continue;
    if (floorOf(a) <= floorOf(b)) out.push(`${e.from} → ${e.to} (${a} on floor ${floorOf(a)}, ${b} on floor ${floorOf(b)})`);
  }
  return out;
}

describe("the import graph of src/", () => {
  const graph = importGraph(root);

  it("every relative import names a file", () => {
    expect(graph.unresolved.map((e) => `${e.from}: ${e.specifier}`)).toEqual([]);
  });

  it("has no import circle", () => {
    expect(importCircles(graph).map((c) => c.join(" ⇄ "))).toEqual([]);
  });

  it("puts every file in a room of the layer order", () => {
    expect(graph.files.filter((f) => roomOf(f) === undefined)).toEqual([]);
  });

  it("imports only down the floors", () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it("would catch a circle and an import up the floors", () => {
    const bad: ImportGraph = {
      files: ["src/core/text/a.ts", "src/core/text/b.ts", "src/core/session/format/c.ts"],
      edges: [
        { from: "src/core/text/a.ts", to: "src/core/text/b.ts", specifier: "./b" },
        { from: "src/core/text/b.ts", to: "src/core/text/a.ts", specifier: "./a" },
        { from: "src/core/text/a.ts", to: "src/core/session/format/c.ts", specifier: "../session/format/c" },
      ],
      unresolved: [],
    };
    expect(importCircles(bad)).toEqual([["src/core/text/a.ts", "src/core/text/b.ts"]]);
    expect(layerViolations(bad)).toHaveLength(1);
  });
});
