// Scores the collector against the independently labelled corpus
// (test/fixtures/files-touched/commands.jsonl, written without reading the
// collector). Each (path, letter) pair is an item; precision and recall are
// over items, per letter and overall. Fails below overall F1 0.95.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadParser, touched } from "./helpers";

interface CorpusLine {
  id: string;
  cmd: string;
  cwd?: string;
  expect: Record<string, string>;
  constructs: string[];
}

const CORPUS = join(__dirname, "..", "..", "fixtures", "files-touched", "commands.jsonl");
const LETTERS = ["R", "W", "E", "M", "D"] as const;

function items(files: Record<string, string>): Set<string> {
  const out = new Set<string>();
  for (const [path, ops] of Object.entries(files)) for (const op of ops) out.add(`${op}\0${path}`);
  return out;
}

interface Score {
  tp: number;
  fp: number;
  fn: number;
}

function f1(s: Score): { precision: number; recall: number; f1: number } {
  const precision = s.tp + s.fp === 0 ? 1 : s.tp / (s.tp + s.fp);
  const recall = s.tp + s.fn === 0 ? 1 : s.tp / (s.tp + s.fn);
  return { precision, recall, f1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall) };
}

beforeAll(loadParser);

describe("labelled corpus of agent bash commands", () => {
  it("scores overall F1 >= 0.95", () => {
    const lines = readFileSync(CORPUS, "utf8").split("\n").filter((l) => l.trim() !== "");
    const corpus = lines.map((l) => JSON.parse(l) as CorpusLine);
    expect(corpus.length).toBeGreaterThanOrEqual(300);
    const perLetter = new Map<string, Score>(LETTERS.map((l) => [l, { tp: 0, fp: 0, fn: 0 }]));
    const total: Score = { tp: 0, fp: 0, fn: 0 };
    const misses: string[] = [];
    for (const line of corpus) {
      const got = items(touched(line.cmd, line.cwd ?? "/repo"));
      const want = items(line.expect);
      const diff: string[] = [];
      for (const item of got) {
        const s = perLetter.get(item[0]!)!;
        if (want.has(item)) {
          s.tp++;
          total.tp++;
        } else {
          s.fp++;
          total.fp++;
          diff.push(`+${item.replace("\0", " ")}`);
        }
      }
      for (const item of want) {
        if (got.has(item)) continue;
        perLetter.get(item[0]!)!.fn++;
        total.fn++;
        diff.push(`-${item.replace("\0", " ")}`);
      }
      if (diff.length) misses.push(`${line.id}: ${diff.join(", ")}`);
    }
    const rows = LETTERS.map((l) => {
      const s = perLetter.get(l)!;
      const r = f1(s);
      return `${l}  P=${r.precision.toFixed(3)} R=${r.recall.toFixed(3)} F1=${r.f1.toFixed(3)}  (tp ${s.tp}, fp ${s.fp}, fn ${s.fn})`;
    });
    const overall = f1(total);
    console.log(
      [
        `files-touched corpus: ${corpus.length} commands`,
        ...rows,
        `all P=${overall.precision.toFixed(3)} R=${overall.recall.toFixed(3)} F1=${overall.f1.toFixed(3)}  (tp ${total.tp}, fp ${total.fp}, fn ${total.fn})`,
        `${misses.length} commands differ:`,
        ...misses.map((m) => `  ${m}`),
      ].join("\n"),
    );
    expect(overall.f1).toBeGreaterThanOrEqual(0.95);
  });
});
