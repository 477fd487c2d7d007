import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { analyzeBashCommand, collectFilesTouched, initFilesTouched } from "../../../src/core/files-touched";
import { tool } from "./session-builder";

beforeAll(() => initFilesTouched());

const shellAlphabet = fc.constantFrom(
  ..."abcxyz./-_ 019".split(""),
  "'", '"', "\\", "$", "`", "(", ")", "{", "}", "[", "]", "<", ">", "|", "&", ";", "\n", "*", "?", "~", "#", "=", "!",
  "<<EOF\n", "\nEOF\n", "$(", "${", "$((", "<<<", ">>", "&>", "2>&1", "cd ", "mv ", "rm -rf ", "sed -i ", "for f in ", "; do ", "; done", "if ", "; then ", "; fi", "bash -c ", "eval ", "xargs ", "find . -exec ",
);

describe("properties", () => {
  it("any command string: never throws, actions only with absolute or ~ paths", () => {
    fc.assert(
      fc.property(fc.array(shellAlphabet, { maxLength: 60 }).map((parts) => parts.join("")), (command) => {
        const out = analyzeBashCommand(command, { cwd: "/repo" });
        for (const a of out.actions) {
          const paths = a.kind === "move" ? [a.from, a.to] : [a.path];
          for (const p of paths) expect(p.startsWith("/") || p === "~" || p.startsWith("~/")).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("arbitrary unicode strings never throw", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 200 }), (command) => {
        expect(() => analyzeBashCommand(command, { cwd: "/repo" })).not.toThrow();
      }),
      { numRuns: 300 },
    );
  });

  it("the same file spelled differently collapses to one entry", () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 3 }), segment, (dirs, detour) => {
        // A first segment equal to the cwd's name is read as that prefix by design.
        fc.pre(dirs[0] !== "repo");
        const rel = `${dirs.join("/")}.ts`;
        const spellings = [rel, `./${rel}`, `/repo/${rel}`, `${detour}/../${rel}`, `repo/${rel}`, `/repo/./${detour}/../${rel}`];
        const entries = spellings.flatMap((p, i) => tool(i % 2 ? "read" : "edit", { path: p }));
        const bashEntries = tool("bash", { command: spellings.map((p) => `cat '${p}'`).join(" && ") });
        const out = collectFilesTouched([...entries, ...bashEntries], { cwd: "/repo" });
        expect(out.files).toEqual([{ path: `/repo/${rel}`, displayPath: rel, ops: "RE" }]);
      }),
      { numRuns: 200 },
    );
  });
});
