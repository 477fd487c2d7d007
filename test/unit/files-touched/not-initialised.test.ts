// Runs in its own worker without initFilesTouched(): bash is reported, not guessed.
import { describe, expect, it } from "vitest";
import { analyzeBashCommand, collectFilesTouched, isBashParserReady } from "../../../src/core/files-touched";
import { tool } from "./session-builder";

describe("before initFilesTouched()", () => {
  it("bash yields no actions and a diagnostic; other tools still count", () => {
    expect(isBashParserReady()).toBe(false);
    const out = analyzeBashCommand("rm a.txt", { cwd: "/repo" });
    expect(out.actions).toEqual([]);
    expect(out.diagnostics.map((d) => d.code)).toEqual(["bash-parser-not-ready"]);
    const collected = collectFilesTouched([...tool("bash", { command: "rm a.txt" }), ...tool("read", { path: "b.txt" })], { cwd: "/repo" });
    expect(collected.files).toEqual([{ path: "/repo/b.txt", displayPath: "b.txt", ops: "R" }]);
    expect(collected.diagnostics.map((d) => d.code)).toEqual(["bash-parser-not-ready"]);
  });
});
