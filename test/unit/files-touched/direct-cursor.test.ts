// The direct route (the runtime's cursor exports) against web-tree-sitter's
// TreeCursor class: the same ShNode tree for every command of the labelled
// corpus, the large fixture's bash calls, and random shell-like strings.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { fixtureBashCommands } from "../../support/fixture-bash-commands";
import { beforeAll, describe, expect, it } from "vitest";
import { initFilesTouched } from "../../../src/core/files-touched";
import { parseBashVia } from "../../../src/core/files-touched/bash-syntax";

const FIXTURES = join(__dirname, "..", "..", "fixtures");

beforeAll(() => initFilesTouched());

function same(command: string): void {
  const viaCursor = parseBashVia("cursor", command);
  const viaDirect = parseBashVia("direct", command);
  expect(viaDirect).toEqual(viaCursor);
}

describe("direct tree copy equals the TreeCursor copy", () => {
  it("on every command of the labelled corpus", () => {
    const lines = readFileSync(join(FIXTURES, "files-touched", "commands.jsonl"), "utf8").split("\n").filter((l) => l.trim());
    expect(lines.length).toBeGreaterThanOrEqual(300);
    let trees = 0;
    for (const line of lines) {
      const { cmd } = JSON.parse(line) as { cmd: string };
      same(cmd);
      if (!parseBashVia("direct", cmd)!.hasError) trees++;
    }
    expect(trees).toBeGreaterThan(300);
  });

  it("on the large fixture's bash calls", () => {
    const commands = fixtureBashCommands();
    expect(commands.length).toBeGreaterThan(100);
    for (const command of commands) same(command);
  });

  it("on random shell-like strings", () => {
    const part = fc.constantFrom(
      ..."abcxyz./-_ 019".split(""),
      "'", '"', "\\", "$", "`", "(", ")", "{", "}", "<", ">", "|", "&", ";", "\n", "*", "~", "#", "=",
      "<<EOF\n", "\nEOF\n", "$(", "${", "<<<", ">>", "2>&1", "cd ", "mv ", "rm -rf ", "for f in ", "; do ", "; done", "if ", "; then ", "; fi", "é", "😀",
    );
    fc.assert(fc.property(fc.array(part, { maxLength: 50 }).map((p) => p.join("")), same), { numRuns: 500 });
  });

  it("on deeply nested commands (the cursor's stack grows)", () => {
    let command = "cat a > b";
    for (let i = 0; i < 40; i++) command = `( ${command} && echo $(ls ${i}) )`;
    same(command);
    expect(parseBashVia("direct", command)!.hasError).toBe(false);
  });
});
