// boundSummary on its own: nothing folded when it fits; a fold keeps as much
// detail as the budget has room for (folders shown one level deeper, the
// cheapest first); the text is cut only when one row per list is still too
// much, and says so.
import { describe, expect, it } from "vitest";
import { boundSummary } from "../../../src/core/write/bounded-summary.js";

const file = (displayPath: string, ops = "W") => ({ path: `/p/${displayPath}`, displayPath, ops });
/** 20 folders `big/dN/` of 40 files, and 3 small folders of 2 files. */
const files = [
  ...Array.from({ length: 20 * 40 }, (_, i) => file(`big/d${Math.floor(i / 40)}/file-with-a-long-name-${i}.ts`)),
  ...["a", "b", "c"].flatMap((d) => [file(`small/${d}/x.ts`, "E"), file(`small/${d}/y.ts`, "E")]),
];
const tokens = (t: string) => Math.ceil(t.length / 4);

describe("boundSummary", () => {
  it("fits: every file named, nothing folded", () => {
    const out = boundSummary({ text: "T", readFiles: [], modifiedFiles: [], manifest: { files: files.slice(0, 10) }, budgetTokens: 16000 });
    expect(out.folded).toBe(false);
    for (const f of files.slice(0, 10)) expect(out.summary).toContain(f.displayPath);
  });

  it("a fold keeps the detail the budget allows: small folders named file by file, big ones folded, under the budget", () => {
    const budget = 1200;
    const out = boundSummary({ text: "T", readFiles: [], modifiedFiles: [], manifest: { files }, budgetTokens: budget });
    expect(out.folded).toBe(true);
    expect(tokens(out.summary)).toBeLessThanOrEqual(budget);
    // The uniform fold would show `small/ (6 files)`; the small folders are cheap to show one level deeper.
    expect(out.summary).not.toContain("small/ (6 files)");
    expect(out.summary).toMatch(/E  small\/a\/x\.ts|E  small\/a\/ \(2 files\)/);
    expect(out.summary).toMatch(/big\/d\d+\/ \(40 files\)|big\/ \(800 files\)/);
  });

  it("text too long for any fold: cut with a marker, the block still there as one row", () => {
    const out = boundSummary({ text: "x".repeat(100_000), readFiles: [], modifiedFiles: [], manifest: { files }, budgetTokens: 2000 });
    expect(out.textCut).toBe(true);
    expect(tokens(out.summary)).toBeLessThanOrEqual(2000);
    expect(out.summary).toContain("[pi-sessions: the summary text was cut here");
    expect(out.summary).toContain("./ (806 files)");
  });
});
