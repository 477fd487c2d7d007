// omp's context usage kept over appends (OmpIncrementalUsage through
// LiveSessionFacts): after every append of random omp entries — turns with tool
// calls answered late, early or never, error and aborted turns with and without
// an interrupted-thinking notice, retry recoveries, developer and custom
// messages, context notebook revisions, compactions of every method, `/clear`,
// branch summaries, model/thinking changes, labels, and switches to another
// leaf — the live usage equals omp's usage computed from scratch on the branch
// (ompContextUsage on the whole path; itself compared with omp 18.3.4 by the
// differential suite). Also on the files omp wrote, replayed entry by entry.

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOmpSemantics } from "../../../src/core/agent/omp-18/semantics.js";
import { ompContextTokenRule } from "../../../src/core/agent/omp-18/context-token-rule.js";
import { entryAsLoaded, blobStoreAt } from "../../../src/core/agent/omp-18/blob-store.js";
import type { OmpMessage } from "../../../src/core/agent/omp-18/messages.js";
import type { ContextTokenRule } from "../../../src/core/tokens/context-token-rule.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { LiveSessionFacts } from "../../../src/core/live/live-facts.js";
import { openSession, openSessionSync, refreshSession } from "../../../src/core/session/open/open-session.js";
import { OMP_FIXTURE_BLOBS, OMP_FIXTURES, OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { OmpFile, step, turnSteps, type Kind, type Step } from "../../support/omp/live-omp-file.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-omp-live-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The rule, counting the counts it starts (each one a recount from `recountStart`). */
function countingRule(rule: ContextTokenRule): { rule: ContextTokenRule; started: () => number } {
  let started = 0;
  const incremental = rule.incremental!.bind(rule);
  return {
    rule: {
      ...rule,
      incremental: (tail) => {
        started++;
        return incremental(tail);
      },
    },
    started: () => started,
  };
}

const blobs = blobStoreAt(undefined);
const load = (entry: SessionEntry): OmpMessage => entryAsLoaded(entry as unknown as OmpMessage, blobs);
/** Default window limits, and tiny ones (the window settles with dangling calls watched almost every time). */
const RULES: [string, ContextTokenRule][] = [
  ["default window", createOmpSemantics(undefined).contextTokenRule],
  ["window of 2", ompContextTokenRule({}, load, { maxWindow: 2, keep: 1 })],
];

let run = 0;
async function replay(rule: ContextTokenRule, start: readonly string[], batches: readonly (readonly string[])[]): Promise<number> {
  const path = join(dir, `live${run++}.jsonl`);
  writeFileSync(path, start.map((l) => `${l}\n`).join(""));
  const counting = countingRule(rule);
  let session = await openSession(path);
  const live = new LiveSessionFacts(session, counting.rule);
  expect(live.current.usage).toStrictEqual(rule.usageOfPath(openSessionSync(path).pathTo()));
  for (const batch of batches) {
    appendFileSync(path, batch.map((l) => `${l}\n`).join(""));
    session = (await refreshSession(session)).session;
    const facts = live.update(session);
    expect(facts.usage).toStrictEqual(rule.usageOfPath(openSessionSync(path).pathTo()));
  }
  return counting.started();
}

describe("omp's context usage kept over appends", () => {
  for (const [name, rule] of RULES) {
    it(`equals omp's usage from scratch after every random append (${name})`, async () => {
      await fc.assert(
        fc.asyncProperty(turnSteps, fc.array(fc.array(step, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 16 }), async (opening, steps) => {
          const file = new OmpFile();
          for (const s of opening) file.lines.push(file.line(s));
          const batches = steps.map((batch) => batch.map((s) => file.line(s)));
          await replay(rule, file.lines, batches);
        }),
        { numRuns: Number(process.env.OMP_LIVE_RUNS ?? 150) },
      );
    });
  }

  it("counts again only where omp's context changes other than by the appended entries", async () => {
    const rule = createOmpSemantics(undefined).contextTokenRule;
    const file = new OmpFile();
    const s = (kind: Kind, pick = 1): Step => ({ kind, earlier: false, pick, text: "some words", usage: 120 });
    for (const kind of ["user", "assistant"] as Kind[]) file.lines.push(file.line(s(kind)));
    // Turns as omp writes them: the answer's calls, omp's tool_execution_start, the results; an answer; a failed turn, then the next prompt.
    const turn = (): string[][] => [[file.line(s("user"))], [file.line(s("assistant-calls", 2))], [file.line(s("custom"))], [file.line(s("tool-result", 3))], [file.line(s("assistant"))]];
    const plain = [...turn(), ...turn(), [file.line(s("error", 2))], [file.line(s("user"))], ...turn()];
    expect(await replay(rule, file.lines, plain)).toBe(1);
    // Each of these changes the context wholesale: one count each.
    const wholesale = [[file.line(s("compaction-soft"))], [file.line(s("user"))], [file.line(s("clear"))], [file.line(s("assistant"))], [file.line(s("notes"))]];
    expect(await replay(rule, file.lines, [...plain, ...wholesale])).toBe(1 + 3);
    // A switch to an earlier leaf is counted again; appends below it are not.
    const back = file.line({ kind: "user", earlier: true, pick: 3, text: "other branch", usage: 1 });
    expect(await replay(rule, file.lines, [...plain, [back], [file.line(s("assistant"))]])).toBe(2);
  });

  it("equals omp's usage from scratch on the files omp wrote, replayed entry by entry", async () => {
    const semantics = createOmpSemantics(OMP_FIXTURE_BLOBS);
    let appends = 0;
    for (const name of OMP_FIXTURES) {
      const lines = readFileSync(join(OMP_FIXTURES_DIR, `${name}.jsonl`), "utf8").split("\n").filter((l) => l.length > 0);
      const header = lines.findIndex((l) => l.includes('"type":"session"'));
      const started = await replay(semantics.contextTokenRule, lines.slice(0, header + 1), lines.slice(header + 1).map((l) => [l]));
      appends += lines.length - header - 1;
      expect(started).toBeLessThan(lines.length - header - 1);
    }
    expect(appends).toBeGreaterThan(200);
  });
});
