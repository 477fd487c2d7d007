import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatManifestBlock, appendManifest, stripManifest } from "../../../src/core/files-touched";
import { displayPathOf, looksLikeFile, normalizeAbsolute, resolvePath } from "../../../src/core/files-touched/paths";
import { FilesLedger, opsString } from "../../../src/core/files-touched/ledger";

const ctx = { sessionCwd: "/work/repo" };

describe("paths", () => {
  it("normalises lexically", () => {
    expect(normalizeAbsolute("/a//b/./c/../d/")).toBe("/a/b/d");
    expect(normalizeAbsolute("/../..")).toBe("/");
    expect(normalizeAbsolute("~/x/../y")).toBe("~/y");
  });

  it("a path already normal comes back as it is; the shortcut agrees with the segment walk", () => {
    const path = fc.array(fc.constantFrom("a", "b.ts", ".", "..", "", "...", ".x", "x."), { maxLength: 8 }).map((s) => `/${s.join("/")}`);
    fc.assert(
      fc.property(path, (p) => {
        const normal = normalizeAbsolute(p);
        // `/.` in front forces the segment walk; it names the same path.
        expect(normal).toBe(normalizeAbsolute(`/.${p}`));
        expect(normalizeAbsolute(normal)).toBe(normal);
        expect(normal === "/" || !/\/\.{0,2}(?:\/|$)/.test(normal)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("resolves against a base, drops a cwd-basename prefix only at the session cwd", () => {
    expect(resolvePath("src/a.ts", "/work/repo", ctx)).toBe("/work/repo/src/a.ts");
    expect(resolvePath("repo/src/a.ts", "/work/repo", ctx)).toBe("/work/repo/src/a.ts");
    expect(resolvePath("./repo/src/a.ts", "/work/repo", ctx)).toBe("/work/repo/src/a.ts");
    expect(resolvePath("repo/a.ts", "/work/repo/sub", ctx)).toBe("/work/repo/sub/repo/a.ts");
    expect(resolvePath("repo", "/work/repo", ctx)).toBe("/work/repo/repo");
    expect(resolvePath("x.ts", undefined, ctx)).toBeUndefined();
    expect(resolvePath("/abs.ts", undefined, ctx)).toBe("/abs.ts");
  });

  it("display paths are relative inside the cwd, absolute outside", () => {
    expect(displayPathOf("/work/repo/src/a.ts", ctx)).toBe("src/a.ts");
    expect(displayPathOf("/work/repository/a.ts", ctx)).toBe("/work/repository/a.ts");
    expect(displayPathOf("/etc/hosts", ctx)).toBe("/etc/hosts");
  });

  it("judges file-like spellings", () => {
    expect(looksLikeFile("src/a.ts")).toBe(true);
    expect(looksLikeFile("src")).toBe(false);
    expect(looksLikeFile("dist/")).toBe(false);
    expect(looksLikeFile(".cache")).toBe(false);
    expect(looksLikeFile("..")).toBe(false);
  });
});

describe("ledger", () => {
  it("letters come out in RWEMD order whatever order they happened in", () => {
    const ledger = new FilesLedger();
    for (const op of ["D", "E", "R", "W"] as const) ledger.apply({ kind: "touch", op, path: "/r/f" });
    expect(opsString(ledger.records()[0]!.ops)).toBe("RWED");
  });

  it("a moved file's letters go with it; the source keeps only D until touched again", () => {
    const ledger = new FilesLedger();
    ledger.apply({ kind: "touch", op: "R", path: "/r/a" });
    ledger.apply({ kind: "touch", op: "E", path: "/r/a" });
    ledger.apply({ kind: "move", from: "/r/a", to: "/r/b", into: false });
    ledger.apply({ kind: "move", from: "/r/b", to: "/r/c", into: false });
    expect(ledger.records().map((r) => [r.path, opsString(r.ops)])).toEqual([["/r/c", "REM"], ["/r/b", "D"], ["/r/a", "D"]]);
  });

  it("a destination's own earlier letters stay", () => {
    const ledger = new FilesLedger();
    ledger.apply({ kind: "touch", op: "R", path: "/r/pkg.json" });
    ledger.apply({ kind: "touch", op: "W", path: "/r/tmp" });
    ledger.apply({ kind: "move", from: "/r/tmp", to: "/r/pkg.json", into: "maybe" });
    expect(ledger.records().map((r) => [r.path, opsString(r.ops)])).toEqual([["/r/pkg.json", "RWM"], ["/r/tmp", "D"]]);
  });
});

describe("manifest block", () => {
  const files = [
    { path: "/r/b", displayPath: "b", ops: "WM" },
    { path: "/r/a", displayPath: "a", ops: "D" },
    { path: "/r/src/x.ts", displayPath: "src/x.ts", ops: "RWE" },
  ];

  it("has the heading, the legend, and OPS padded to two columns in a text block", () => {
    expect(formatManifestBlock({ files })).toBe(
      ["## Files touched (cumulative)", "R=read, W=write, E=edit, M=move/rename, D=delete", "", "```text", "WM b", "D  a", "RWE src/x.ts", "```"].join("\n"),
    );
  });

  it("says so when there are no files", () => {
    expect(formatManifestBlock({ files: [] })).toContain("```text\n(no tracked files)\n```");
  });

  it("is appended after a --- separator and can be stripped again", () => {
    const summary = "## Goal\nShip it.";
    const withManifest = appendManifest(summary, { files });
    expect(withManifest.startsWith(`${summary}\n\n---\n\n## Files touched (cumulative)\n`)).toBe(true);
    expect(stripManifest(withManifest)).toBe(summary);
    expect(stripManifest(summary)).toBe(summary);
  });
});
