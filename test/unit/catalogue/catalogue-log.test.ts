// The catalogue's log (catalogue-log.ts) under everything that can happen to
// it: rows answered from it equal rows read from scratch after random appends,
// rewrites and truncations of the sessions, two writers saving (at once or
// not) and compacting, and the log itself truncated, corrupted, extended with
// garbage or deleted — whatever the log holds, nothing wrong is ever answered.

import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { SessionCatalogue, type CatalogueProgress } from "../../../src/core/catalogue/session-catalogue.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { FileModel, op, step, type Op, type Step } from "../../support/session-lines.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-catalogue-log-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fullRow(path: string): CatalogueRow | undefined {
  if (!existsSync(path)) return undefined;
  const st = statSync(path);
  return rowFromSession(openSessionSync(path), st.size, st.mtimeMs, rowVersionPolicy({ defaultVersion: "0.73" }))?.row;
}

const FILES = 3;

type Damage =
  | { damage: "truncate"; at: number }
  | { damage: "digit"; at: number }
  | { damage: "garbage"; text: string }
  | { damage: "delete" }
  | { damage: "foreign-header" };

type Action =
  | { act: "session"; file: number; op: Op }
  | { act: "list"; writer: number }
  | { act: "list-save"; writer: number }
  | { act: "save"; writer: number }
  | { act: "save-both" }
  | { act: "reopen"; writer: number }
  | { act: "compact"; writer: number }
  | { act: "damage"; what: Damage };

const damage: fc.Arbitrary<Damage> = fc.oneof(
  fc.record({ damage: fc.constant("truncate" as const), at: fc.nat() }),
  fc.record({ damage: fc.constant("digit" as const), at: fc.nat() }),
  fc.record({ damage: fc.constant("digit" as const), at: fc.nat() }),
  fc.record({ damage: fc.constant("garbage" as const), text: fc.constantFrom("{", '{"path":"x"}\n', "0123456789abcdef {}\n", "\n\n", "0000000000000000 ") }),
  fc.record({ damage: fc.constant("delete" as const) }),
  fc.record({ damage: fc.constant("foreign-header" as const) }),
);

const writer = fc.integer({ min: 0, max: 1 });
/** A line as pi appends it: below the leaf, a conversation's kind. */
const continuing: fc.Arbitrary<Step> = fc.record({
  kind: fc.constantFrom<Step["kind"]>("user", "assistant", "tool", "model_change", "session_info", "label", "custom_message"),
  parent: fc.constant("leaf" as const),
  pick: fc.nat(20),
  text: fc.string({ maxLength: 8 }),
  usage: fc.integer({ min: 1, max: 50_000 }),
});
// Mostly appends (what pi does; the log's resume points are then used), also rewrites and truncations.
const sessionOp: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant("append" as const), steps: fc.array(continuing, { minLength: 1, maxLength: 3 }) }) },
  { weight: 2, arbitrary: op },
);
const action: fc.Arbitrary<Action> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ act: fc.constant("session" as const), file: fc.integer({ min: 0, max: FILES - 1 }), op: sessionOp }) },
  { weight: 3, arbitrary: fc.record({ act: fc.constant("list" as const), writer }) },
  { weight: 3, arbitrary: fc.record({ act: fc.constant("list-save" as const), writer }) },
  { weight: 3, arbitrary: fc.record({ act: fc.constant("save" as const), writer }) },
  { weight: 2, arbitrary: fc.record({ act: fc.constant("save-both" as const) }) },
  { weight: 1, arbitrary: fc.record({ act: fc.constant("reopen" as const), writer }) },
  { weight: 1, arbitrary: fc.record({ act: fc.constant("compact" as const), writer }) },
  { weight: 3, arbitrary: fc.record({ act: fc.constant("damage" as const), what: damage }) },
);

function damageLog(file: string, what: Damage): void {
  if (!existsSync(file)) return;
  const text = readFileSync(file, "latin1");
  switch (what.damage) {
    case "truncate":
      truncateSync(file, what.at % (text.length + 1));
      return;
    case "digit": {
      // A digit changed in one of the last lines (a count, a token number, an id filter, a checksum): the line must not be answered as it was.
      const from = text.lastIndexOf("\n", text.lastIndexOf("\n", text.length - 2) - 1) + 1;
      const digits = [...text.slice(from).matchAll(/[0-9]/g)].map((m) => from + m.index!);
      if (digits.length === 0) return;
      const at = digits[what.at % digits.length]!;
      writeFileSync(file, text.slice(0, at) + String((Number(text[at]) + 1) % 10) + text.slice(at + 1), "latin1");
      return;
    }
    case "garbage":
      appendFileSync(file, what.text);
      return;
    case "delete":
      rmSync(file);
      return;
    case "foreign-header":
      writeFileSync(file, text.replace(/"rule":"pi-0\.73"/, '"rule":"pi-1.5"'), "latin1");
      return;
  }
}

let run = 0;

describe("the catalogue's log", () => {
  it("rows from the log equal rows from scratch after random session changes, two writers, compactions and a damaged log", async () => {
    let answeredFromLog = 0;
    let carried = 0;
    let carriedFromLog = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(step, { minLength: 1, maxLength: 5 }), { minLength: FILES, maxLength: FILES }), fc.array(action, { minLength: 1, maxLength: 20 }), async (starts, actions) => {
        const folder = join(dir, `r${run++}`);
        mkdirSync(folder, { recursive: true });
        const cache = join(folder, "cache");
        const paths = starts.map((_, i) => join(folder, `s${i}.jsonl`));
        const models = starts.map((steps, i) => {
          const model = new FileModel();
          for (const s of steps) model.lines.push(model.line(s));
          writeFileSync(paths[i]!, model.text());
          return model;
        });
        const writers = [await SessionCatalogue.open(cache), await SessionCatalogue.open(cache)];
        const check = async (catalogue: SessionCatalogue): Promise<CatalogueProgress> => {
          let progress!: CatalogueProgress;
          const rows = await catalogue.list(paths, (p) => (progress = p));
          const expected = paths.map(fullRow).filter((r): r is CatalogueRow => r !== undefined);
          expect([...rows].sort((a, b) => a.path.localeCompare(b.path))).toEqual(expected);
          return progress;
        };
        for (const a of actions) {
          switch (a.act) {
            case "session":
              models[a.file]!.applyTo(paths[a.file]!, a.op, run);
              break;
            case "list":
              carried += (await check(writers[a.writer]!)).appended;
              break;
            case "list-save":
              carried += (await check(writers[a.writer]!)).appended;
              await writers[a.writer]!.save();
              break;
            case "save":
              await writers[a.writer]!.save();
              break;
            case "save-both":
              await Promise.all(writers.map((w) => w.save()));
              break;
            case "reopen":
              writers[a.writer] = await SessionCatalogue.open(cache);
              break;
            case "compact":
              await writers[a.writer]!.compact();
              break;
            case "damage":
              damageLog(writers[0]!.file, a.what);
              break;
          }
          // A process starting now: every row it answers from the log is the row a full read gives.
          const progress = await check(await SessionCatalogue.open(cache));
          answeredFromLog += progress.cached;
          carriedFromLog += progress.appended;
        }
      }),
      { numRuns: 80 },
    );
    // Not vacuous: rows came from the log, and some were carried over appends from a logged resume point
    // (about 560 and 40 with these runs).
    expect(answeredFromLog).toBeGreaterThan(200);
    expect(carriedFromLog + carried).toBeGreaterThan(10);
  });

  it("a save appends only the changed rows; compaction keeps the last line per path and drops removed ones", async () => {
    const folder = join(dir, "compact");
    mkdirSync(folder, { recursive: true });
    const paths: string[] = [];
    for (let i = 0; i < 20; i++) {
      const model = new FileModel();
      model.lines.push(model.line({ kind: "user", parent: "leaf", pick: i, text: `q${i}`, usage: 1 }));
      paths.push(join(folder, `s${i}.jsonl`));
      writeFileSync(paths[i]!, model.text());
    }
    const cache = join(folder, "cache");
    const catalogue = await SessionCatalogue.open(cache);
    await catalogue.list(paths);
    await catalogue.save();
    const lines = () => readFileSync(catalogue.file, "utf8").trimEnd().split("\n");
    expect(lines()).toHaveLength(21);
    appendFileSync(paths[3]!, `${JSON.stringify({ type: "custom", customType: "x", id: "zz1", parentId: null, timestamp: "2025-01-02T00:00:00.000Z" })}\n`);
    rmSync(paths[4]!);
    await catalogue.list(paths);
    await catalogue.save();
    // One line for the changed row, one for the removed file.
    expect(lines()).toHaveLength(23);
    expect(lines().filter((l) => /^[0-9a-f]{16} \{"path":".*s4\.jsonl","kind":"gone"\}$/.test(l))).toHaveLength(1);
    // The later line for a path wins: a new process answers every file from the log.
    let progress!: CatalogueProgress;
    expect(await (await SessionCatalogue.open(cache)).list(paths, (p) => (progress = p))).toHaveLength(19);
    expect(progress).toMatchObject({ cached: 19, read: 0, appended: 0 });
    await catalogue.compact();
    const compacted = lines();
    expect(compacted).toHaveLength(20);
    expect(compacted.filter((l) => l.includes("s3.jsonl"))).toHaveLength(1);
    expect(await (await SessionCatalogue.open(cache)).list(paths, (p) => (progress = p))).toHaveLength(19);
    expect(progress).toMatchObject({ cached: 19, read: 0 });
  });
});
