// prepareAheadInSlices: LiveSessionFacts.prepareAhead run off the write path,
// in slices with the event loop free between them, until done, unwanted or
// cancelled; then the facts after a context edit equal the facts from scratch.

import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pi15ContextTokenRule } from "../../../src/core/agent/index.js";
import { branchFactsFromScratch, LiveSessionFacts } from "../../../src/core/live/live-facts.js";
import { openSession, refreshSession } from "../../../src/core/session/open/open-session.js";
import { prepareAheadInSlices, type PreparableAhead } from "../../../src/core/live/prepare-ahead.js";
import { followSession, type FollowEvent } from "../../../src/core/live/session-follower.js";
import { FileModel } from "../../support/session-lines.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-prepare-ahead-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in with `chunks` chunks of work, each taking `chunkMs` of busy time. */
function busyWork(chunks: number, chunkMs: number): PreparableAhead & { done: number } {
  return {
    done: 0,
    prepareAhead(stop) {
      while (this.done < chunks) {
        if (stop()) return false;
        const until = performance.now() + chunkMs;
        while (performance.now() < until);
        this.done++;
      }
      return true;
    },
  };
}

describe("prepareAheadInSlices", () => {
  it("works in slices with the event loop free between them, and resolves true when done", async () => {
    const work = busyWork(12, 2);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    try {
      const preparing = prepareAheadInSlices(work, { sliceMs: 3, gapMs: 1 });
      expect(work.done).toBe(0);
      expect(await preparing.done).toBe(true);
    } finally {
      clearInterval(ticker);
    }
    expect(work.done).toBe(12);
    // At most two chunks fit a 3 ms slice: the timer ran between the ≥ 6 slices.
    expect(ticks).toBeGreaterThanOrEqual(5);
  });

  it("stops when no longer wanted or cancelled, and when the facts cannot read their file", async () => {
    const unwanted = busyWork(100, 1);
    let wanted = true;
    const stopped = prepareAheadInSlices(unwanted, { sliceMs: 2, gapMs: 1, wanted: () => wanted });
    setTimeout(() => (wanted = false), 5);
    expect(await stopped.done).toBe(false);
    expect(unwanted.done).toBeLessThan(100);

    const cancelled = busyWork(100, 1);
    const preparing = prepareAheadInSlices(cancelled, { startAfterMs: 50 });
    preparing.cancel();
    expect(await preparing.done).toBe(false);
    // Nothing runs after a cancel (the first slice was due at 50 ms).
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(cancelled.done).toBe(0);

    const failing = prepareAheadInSlices({ prepareAhead: () => { throw new Error("the file changed"); } });
    expect(await failing.done).toBe(false);
  });

  it("prepares a pi 1.5 session's facts: the first context edit then gives the facts from scratch", async () => {
    const path = join(dir, "session.jsonl");
    const model = new FileModel();
    for (let i = 0; i < 300; i++) model.lines.push(model.line({ kind: i % 3 === 2 ? "tool" : i % 3 ? "assistant" : "user", parent: "leaf", pick: i, text: `text ${i} `.repeat(i % 7), usage: 1000 + i }));
    writeFileSync(path, model.text());
    const session = await openSession(path);
    const live = new LiveSessionFacts(session, pi15ContextTokenRule);
    expect(await prepareAheadInSlices(live, { sliceMs: 1, gapMs: 0 }).done).toBe(true);
    expect(live.preparedAhead).toBe(true);
    appendFileSync(path, `${JSON.stringify({ type: "context_edit", id: "x1", parentId: model.ids[299], timestamp: "2025-02-01T00:00:00.000Z", targetId: model.ids[10], replacement: { content: "short" } })}\n`);
    const facts = live.update((await refreshSession(session)).session);
    expect(facts.usage.source).toBe("estimate");
    expect({ ...facts, labels: [] }).toEqual({ ...branchFactsFromScratch(await openSession(path), pi15ContextTokenRule), labels: [] });
  });

  it("pi-sessions watch's follower prepares ahead between writes: the first context edit reads only the edit and its target", async () => {
    const path = join(dir, "followed.jsonl");
    const model = new FileModel();
    for (let i = 0; i < 300; i++) model.lines.push(model.line({ kind: i % 2 ? "assistant" : "user", parent: "leaf", pick: i, text: `text ${i}`, usage: 1000 + i }));
    writeFileSync(path, model.text());
    const parsed: string[] = [];
    const events: FollowEvent[] = [];
    const follower = await followSession(path, {
      rule: pi15ContextTokenRule,
      pollMs: 50,
      onEvent(event) {
        events.push(event);
        if (event.kind !== "opened") return;
        const session = event.session;
        const entryAt = session.entryAt.bind(session);
        session.entryAt = (meta) => (parsed.push(meta.id), entryAt(meta));
        const eachEntryAt = session.eachEntryAt.bind(session);
        session.eachEntryAt = (metas, visit) => (parsed.push(...metas.map((m) => m.id)), eachEntryAt(metas, visit));
      },
    });
    try {
      const deadline = Date.now() + 10_000;
      while (new Set(parsed).size < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      expect(new Set(parsed).size).toBe(300);
      parsed.length = 0;
      appendFileSync(path, `${JSON.stringify({ type: "context_edit", id: "x1", parentId: model.ids[299], timestamp: "2025-02-01T00:00:00.000Z", targetId: model.ids[10], replacement: null })}\n`);
      await follower.check();
      const last = events[events.length - 1]!;
      expect(last.kind).toBe("appended");
      if (last.kind !== "appended") return;
      expect(last.facts.usage.source).toBe("estimate");
      expect({ ...last.facts, labels: [] }).toEqual({ ...branchFactsFromScratch(await openSession(path), pi15ContextTokenRule), labels: [] });
      expect(new Set(parsed)).toEqual(new Set(["x1", model.ids[10]]));
    } finally {
      follower.stop();
    }
  });
});
