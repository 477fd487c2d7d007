// Live facts follow a file through appends, rewrites and truncations and stay
// equal to the same facts computed from scratch on a fresh read of the file.

import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchFactsFromScratch, LiveSessionFacts, type BranchFacts } from "../../../src/core/live/live-facts.js";
import { openSession, refreshSession } from "../../../src/core/session/open/open-session.js";
import { pi15ContextTokenRule } from "../../../src/core/agent/index.js";
import { pi073ContextTokenRule, type ContextTokenRule } from "../../../src/core/tokens/context-token-rule.js";
import { FileModel, opOf, step, stepWithEdits, type Op, type Step } from "../../support/session-lines.js";
import { prepareBudget, prepareWithin } from "../../support/prepare-budget.js";
import type fcTypes from "fast-check";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-live-facts-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function comparable(f: BranchFacts): unknown {
  return { ...f, labels: [...f.labels] };
}

const rules: [string, ContextTokenRule, fcTypes.Arbitrary<Step>][] = [
  ["pi 0.73", pi073ContextTokenRule, step],
  // pi 1.5: compactions and context edits reset; the recount starts at the latest compaction's kept range.
  ["pi 1.5, with context edits", pi15ContextTokenRule, stepWithEdits],
];

let run = 0;

/** Incremental facts after each op equal the facts from scratch on a fresh read of the file. */
async function followsFromScratch(rule: ContextTokenRule, steps: fcTypes.Arbitrary<Step>, ops: fcTypes.Arbitrary<Op>, numRuns: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(fc.array(steps, { minLength: 1, maxLength: 8 }), fc.array(fc.tuple(ops, prepareBudget), { minLength: 1, maxLength: 10 }), async (start, ops) => {
      const path = join(dir, `s${run++}.jsonl`);
      const model = new FileModel();
      for (const s of start) model.lines.push(model.line(s));
      writeFileSync(path, model.text());
      let session = await openSession(path);
      const live = new LiveSessionFacts(session, rule);
      expect(comparable(live.current)).toEqual(comparable(branchFactsFromScratch(session, rule)));
      for (const [o, budget] of ops) {
        // What the background got done before pi's next write.
        expect(prepareWithin(live, budget)).toBe(live.preparedAhead);
        model.applyTo(path, o, run);
        const refreshed = await refreshSession(session);
        session = refreshed.session;
        const facts = live.update(session);
        const fresh = await openSession(path);
        expect(comparable(facts)).toEqual(comparable(branchFactsFromScratch(fresh, rule)));
        expect(live.branch.map((m) => m.id)).toEqual(fresh.pathTo().map((e) => e.id));
      }
    }),
    { numRuns },
  );
}

describe.each(rules)("LiveSessionFacts (%s)", (_name, rule, steps) => {
  it("equal facts recomputed from scratch after random appends, rewrites and truncations, with any amount prepared ahead in between", async () => {
    await followsFromScratch(rule, steps, opOf(steps), Number(process.env.RUNS ?? 150));
  });

  it("reads only the appended entries' bodies after an append below the leaf", async () => {
    const path = join(dir, `parses-${rule.name}.jsonl`);
    const model = new FileModel();
    for (let i = 0; i < 200; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: "t", usage: 100 + i }));
    writeFileSync(path, model.text());
    const session = await openSession(path);
    const live = new LiveSessionFacts(session, rule);
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

describe("LiveSessionFacts (pi 1.5) with context edits whose targets arrive later", () => {
  it("equal facts from scratch when an edit's target is appended after it (a write or two later)", async () => {
    // pick % 7 === 1: the edit targets one of the next three ids (session-lines.ts).
    const editAhead = step.map((s) => ({ ...s, kind: "context_edit" as const, pick: s.pick - (s.pick % 7) + 1 }));
    const steps = fc.oneof({ weight: 3, arbitrary: step }, { weight: 2, arbitrary: editAhead });
    const appends = fc.record({ op: fc.constant("append" as const), steps: fc.array(steps, { minLength: 1, maxLength: 2 }) });
    await followsFromScratch(pi15ContextTokenRule, steps, appends, Number(process.env.RUNS ?? 150));
  });
});

describe("LiveSessionFacts (pi 1.5) after a reset is appended", () => {
  /** A 200-entry conversation, opened, with a counter of the bodies parsed from then on. */
  async function opened(name: string) {
    const path = join(dir, name);
    const model = new FileModel();
    for (let i = 0; i < 200; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: "t", usage: 100 + i }));
    writeFileSync(path, model.text());
    const session = await openSession(path);
    const live = new LiveSessionFacts(session, pi15ContextTokenRule);
    const parsed: string[] = [];
    const entryAt = session.entryAt.bind(session);
    session.entryAt = (meta) => {
      parsed.push(meta.id);
      return entryAt(meta);
    };
    const eachEntryAt = session.eachEntryAt.bind(session);
    session.eachEntryAt = (metas, visit) => {
      parsed.push(...metas.map((m) => m.id));
      eachEntryAt(metas, visit);
    };
    const append = async (line: string) => {
      appendFileSync(path, `${line}\n`);
      const facts = live.update((await refreshSession(session)).session);
      expect(comparable(facts)).toEqual(comparable(branchFactsFromScratch(await openSession(path), pi15ContextTokenRule)));
      return facts;
    };
    return { model, parsed, append, live };
  }

  it("a compaction: only the compaction and the entries it keeps are read", async () => {
    const { model, parsed, append } = await opened("compaction-15.jsonl");
    const kept = model.ids[195]!;
    const line = JSON.stringify({ type: "compaction", id: "c1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", summary: "s", firstKeptEntryId: kept, tokensBefore: 9 });
    const facts = await append(line);
    expect(facts.usage.source).toBe("estimate-after-compaction");
    expect(new Set(parsed)).toEqual(new Set([...model.ids.slice(195, 200), "c1"]));
  });

  it("a context edit after a compaction: only the compaction's range is read again", async () => {
    const { model, parsed, append } = await opened("edit-15.jsonl");
    await append(JSON.stringify({ type: "compaction", id: "c1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", summary: "s", firstKeptEntryId: model.ids[190], tokensBefore: 9 }));
    parsed.length = 0;
    const facts = await append(JSON.stringify({ type: "context_edit", id: "x1", parentId: "c1", timestamp: "2025-01-02T00:00:01.000Z", targetId: model.ids[197], replacement: null }));
    expect(facts.usage.source).toBe("estimate-after-compaction");
    expect(parsed.every((id) => id === "x1" || id === "c1" || model.ids.indexOf(id) >= 190)).toBe(true);
  });

  it("prepared ahead, the first context edit without a compaction reads only the edit and its target", async () => {
    const { model, parsed, append, live } = await opened("prepared-edit-15.jsonl");
    expect(live.preparedAhead).toBe(false);
    expect(live.prepareAhead(() => false)).toBe(true);
    expect(live.preparedAhead).toBe(true);
    // Followed over plain appends (no whole-branch pass left for the edit).
    await append(JSON.stringify({ type: "message", id: "u1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", message: { role: "user", content: "more", timestamp: 1 } }));
    expect(live.preparedAhead).toBe(true);
    parsed.length = 0;
    const first = await append(JSON.stringify({ type: "context_edit", id: "x1", parentId: "u1", timestamp: "2025-01-02T00:00:01.000Z", targetId: model.ids[150], replacement: null }));
    expect(first.usage.source).toBe("estimate");
    expect(new Set(parsed)).toEqual(new Set(["x1", model.ids[150]]));
  });

  it("prepared partly, the first context edit reads only what was left (each body once)", async () => {
    const { model, parsed, append, live } = await opened("partly-prepared-edit-15.jsonl");
    let chunks = 0;
    expect(live.prepareAhead(() => chunks++ >= 3, 1)).toBe(false);
    expect(new Set(parsed)).toEqual(new Set(model.ids.slice(0, 3)));
    parsed.length = 0;
    // A plain append leaves the rest to the background: only its own body is read.
    await append(JSON.stringify({ type: "message", id: "u1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", message: { role: "user", content: "more", timestamp: 1 } }));
    expect(parsed).toEqual(["u1"]);
    expect(live.preparedAhead).toBe(false);
    parsed.length = 0;
    await append(JSON.stringify({ type: "context_edit", id: "x1", parentId: "u1", timestamp: "2025-01-02T00:00:01.000Z", targetId: model.ids[1], replacement: null }));
    expect(parsed.filter((id) => id !== "x1" && id !== model.ids[1]).sort()).toEqual([...model.ids.slice(3, 200), "u1"].sort());
  });

  it("nothing is prepared ahead with a compaction on the branch, or under pi 0.73's rule", async () => {
    const { model, parsed, append, live } = await opened("compaction-prepared-15.jsonl");
    await append(JSON.stringify({ type: "compaction", id: "c1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", summary: "s", firstKeptEntryId: model.ids[190], tokensBefore: 9 }));
    parsed.length = 0;
    expect(live.preparedAhead).toBe(true);
    expect(live.prepareAhead(() => false)).toBe(true);
    expect(parsed).toEqual([]);
    const path = join(dir, "prepared-073.jsonl");
    writeFileSync(path, model.text());
    const live073 = new LiveSessionFacts(await openSession(path), pi073ContextTokenRule);
    expect(live073.preparedAhead).toBe(true);
    expect(live073.prepareAhead(() => false)).toBe(true);
  });

  it("a context edit whose target no entry has yet applies to the entry appended later with that id", async () => {
    const { model, append } = await opened("edit-ahead-15.jsonl");
    await append(JSON.stringify({ type: "context_edit", id: "x1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", targetId: "u1", replacement: null }));
    const omitted = await append(JSON.stringify({ type: "message", id: "u1", parentId: "x1", timestamp: "2025-01-02T00:00:01.000Z", message: { role: "user", content: "a question the edit omits", timestamp: 1 } }));
    const after = await append(JSON.stringify({ type: "message", id: "u2", parentId: "u1", timestamp: "2025-01-02T00:00:02.000Z", message: { role: "user", content: "more", timestamp: 2 } }));
    expect(after.usage.messageCount).toBe(omitted.usage.messageCount + 1);
  });

  it("context edits without a compaction: the first sums the branch once, later ones read only the edit and its target", async () => {
    const { model, parsed, append } = await opened("edits-no-compaction-15.jsonl");
    const first = await append(JSON.stringify({ type: "context_edit", id: "x1", parentId: model.ids[199], timestamp: "2025-01-02T00:00:00.000Z", targetId: model.ids[150], replacement: null }));
    expect(first.usage.source).toBe("estimate");
    parsed.length = 0;
    await append(JSON.stringify({ type: "message", id: "u1", parentId: "x1", timestamp: "2025-01-02T00:00:01.000Z", message: { role: "user", content: "more", timestamp: 1 } }));
    const second = await append(JSON.stringify({ type: "context_edit", id: "x2", parentId: "u1", timestamp: "2025-01-02T00:00:02.000Z", targetId: model.ids[20], replacement: { content: "shorter" } }));
    const third = await append(JSON.stringify({ type: "context_edit", id: "x3", parentId: "x2", timestamp: "2025-01-02T00:00:03.000Z", targetId: model.ids[150], replacement: { content: "back, shorter" } }));
    expect(third.usage.messageCount).toBe(second.usage.messageCount + 1);
    expect(new Set(parsed)).toEqual(new Set(["u1", "x2", model.ids[20], "x3", model.ids[150]]));
  });
});
