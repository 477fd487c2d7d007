// The shortcut for arguments with nothing to expand (plain words, numbers,
// '…' and "…" strings, concatenations of them) against the character-by-character expansion it skips: the
// same arguments for every such node of the labelled corpus and of random words.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { initFilesTouched } from "../../../src/core/files-touched";
import { parseBash, type ShNode } from "../../../src/core/files-touched/bash-syntax";
import { expandWord, expandWordByChars } from "../../../src/core/files-touched/shell-words";

beforeAll(() => initFilesTouched());

const KINDS = new Set(["word", "number", "raw_string", "string", "concatenation"]);

function wordNodes(node: ShNode, out: ShNode[] = []): ShNode[] {
  if (KINDS.has(node.type)) out.push(node);
  for (const child of node.children) wordNodes(child, out);
  return out;
}

function sameArgs(command: string): number {
  const parsed = parseBash(command);
  if (!parsed || parsed.hasError) return 0;
  const nodes = wordNodes(parsed.root);
  for (const node of nodes) expect(expandWord(node, new Map())).toEqual(expandWordByChars(node, new Map()));
  return nodes.length;
}

describe("plain arguments", () => {
  it("equal the full expansion on every word of the labelled corpus", () => {
    const lines = readFileSync(join(__dirname, "..", "..", "fixtures", "files-touched", "commands.jsonl"), "utf8").split("\n").filter((l) => l.trim());
    let nodes = 0;
    for (const line of lines) nodes += sameArgs((JSON.parse(line) as { cmd: string }).cmd);
    expect(nodes).toBeGreaterThan(1000);
  });

  it("equal the full expansion on random words", () => {
    const word = fc.array(fc.constantFrom(..."ab9./-_~{},*?[]\\'é".split(""), "😀", "..", "{a,b}", "{1..3}"), { minLength: 1, maxLength: 12 }).map((p) => p.join(""));
    fc.assert(fc.property(word, (w) => void sameArgs(`cat ${w} '${w.replaceAll("'", "")}' 42`)), { numRuns: 1000 });
  });

  it("equal the full expansion on random strings and concatenations", () => {
    const part = fc.constantFrom("a", "~", "~/x", "x~", "*", "?", "[a]", "{a,b}", "{1..3}", ",", "\\x", "é", "😀", "'q'", "''", '"d"', '""', '"a b"', '"x\\"y"', '"\\$"', '"{a,b}"', '"*"', '"~"', '"$x"', '"a$"', "$'c'", "-", "1", "=");
    const words = fc.array(part, { minLength: 1, maxLength: 5 }).map((p) => p.join(""));
    let nodes = 0;
    fc.assert(fc.property(words, (w) => void (nodes += sameArgs(`cat ${w}`))), { numRuns: 1000 });
    expect(nodes).toBeGreaterThan(1000);
  });
});
