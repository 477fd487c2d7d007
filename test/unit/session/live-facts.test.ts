// Live facts follow a file through appends, rewrites and truncations and stay
// equal to the same facts computed from scratch on a fresh read of the file.

import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchFactsFromScratch, LiveSessionFacts, type BranchFacts } from "../../../src/core/session/live-facts.js";
import { openSession, refreshSession } from "../../../src/core/session/open-session.js";
import { FileModel, op, step } from "../../support/session-lines.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-live-facts-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function comparable(f: BranchFacts): unknown {
  return { ...f, labels: [...f.labels] };
}

describe("LiveSessionFacts", () => {
  it("equal facts recomputed from scratch after random appends, rewrites and truncations", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 8 }), fc.array(op, { minLength: 1, maxLength: 10 }), async (start, ops) => {
        const path = join(dir, `s${run++}.jsonl`);
        const model = new FileModel();
        for (const s of start) model.lines.push(model.line(s));
        writeFileSync(path, model.text());
        let session = await openSession(path);
        const live = new LiveSessionFacts(session);
        expect(comparable(live.current)).toEqual(comparable(branchFactsFromScratch(session)));
        for (const o of ops) {
          if (o.op === "append") {
            const added = o.steps.map((s) => model.line(s));
            model.lines.push(...added);
            appendFileSync(path, added.map((l) => `${l}\n`).join(""));
          } else {
            model.lines = model.lines.slice(0, 1 + (o.keep % model.lines.length));
            if (o.op === "rewrite") for (const s of o.steps) model.lines.push(model.line(s));
            // A different last line always: the rewrite must be seen even at the same size and mtime.
            model.lines.push(model.line({ kind: "custom_message", parent: "leaf", pick: 0, text: `r${run}`, usage: 1 }));
            writeFileSync(path, model.text());
          }
          const refreshed = await refreshSession(session);
          session = refreshed.session;
          const facts = live.update(session);
          const fresh = await openSession(path);
          expect(comparable(facts)).toEqual(comparable(branchFactsFromScratch(fresh)));
          expect(live.branch.map((m) => m.id)).toEqual(fresh.pathTo().map((e) => e.id));
        }
      }),
      { numRuns: 150 },
    );
  });

  it("reads only the appended entries' bodies after an append below the leaf", async () => {
    const path = join(dir, "parses.jsonl");
    const model = new FileModel();
    for (let i = 0; i < 200; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: "t", usage: 100 + i }));
    writeFileSync(path, model.text());
    const session = await openSession(path);
    const live = new LiveSessionFacts(session);
    let parsed = 0;
    const entryAt = session.entryAt.bind(session);
    session.entryAt = (meta) => {
      parsed++;
      return entryAt(meta);
    };
    appendFileSync(path, `${model.line({ kind: "user", parent: "leaf", pick: 0, text: "next question", usage: 1 })}\n`);
    live.update((await refreshSession(session)).session);
    expect(parsed).toBe(1);
    expect(live.current.usage).toMatchObject({ source: "usage", tokens: 100 + 199 + 10 + Math.ceil("next question".length / 4) });
  });
});
