// pi 1.5's token rule through live facts and the catalogue: after random appends
// of pi 1.5 entries (system messages, context_edit omissions and replacements,
// zero / aborted usage, compactions carrying a systemMessage, usage entries,
// branch switches), the incrementally kept usage equals
// semanticsFor("1.5").contextUsage on the branch read from scratch (itself
// proven equal to pi 1.5.2 by test/unit/pi15 and the fixtures test).

import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { pi15ContextTokenRule, semanticsFor } from "../../../src/core/agent/index.js";
import { branchFactsFromScratch, LiveSessionFacts, type BranchFacts } from "../../../src/core/live/live-facts.js";
import { openSession, openSessionSync, refreshSession } from "../../../src/core/session/open/open-session.js";
import { prepareBudget, prepareWithin } from "../../support/prepare-budget.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-rule15-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Kind15 =
  | "user"
  | "assistant"
  | "assistant-zero"
  | "assistant-aborted"
  | "tool"
  | "system"
  | "system-tools"
  | "edit-omit"
  | "edit-replace"
  | "compaction"
  | "compaction-system"
  | "usage-entry"
  | "custom_message"
  | "branch_summary"
  | "model_change";
interface Step15 {
  kind: Kind15;
  /** Mostly the leaf; sometimes an earlier entry (a branch switch). */
  earlier: boolean;
  pick: number;
  text: string;
  usage: number;
}
const step15: fc.Arbitrary<Step15> = fc.record({
  kind: fc.constantFrom<Kind15>(
    "user",
    "assistant",
    "assistant",
    "assistant-zero",
    "assistant-aborted",
    "tool",
    "system",
    "system-tools",
    "edit-omit",
    "edit-replace",
    "compaction",
    "compaction-system",
    "usage-entry",
    "custom_message",
    "branch_summary",
    "model_change",
  ),
  earlier: fc.nat({ max: 7 }).map((n) => n === 0),
  pick: fc.nat(),
  text: fc.string({ maxLength: 60 }),
  usage: fc.integer({ min: 1, max: 200_000 }),
});

const HEADER = JSON.stringify({ type: "session", version: 3, id: "sess15", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });

class File15 {
  lines: string[] = [HEADER];
  ids: string[] = [];
  leaf: string | null = null;
  counter = 0;

  line(s: Step15): string {
    const id = `f${(this.counter++).toString(16).padStart(6, "0")}`;
    const parentId = s.earlier && this.ids.length > 0 ? this.ids[s.pick % this.ids.length]! : this.leaf;
    const timestamp = new Date(Date.UTC(2026, 0, 1) + this.counter * 1000).toISOString();
    const base = { id, parentId, timestamp };
    const target = this.ids.length > 0 ? this.ids[(s.pick >> 3) % this.ids.length]! : "none";
    const usage = (n: number) => ({ input: n, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: n + 10 });
    const zero = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
    const assistant = (stopReason: string, u: object) => ({
      type: "message",
      ...base,
      message: { role: "assistant", content: [{ type: "text", text: s.text }], provider: "p", model: "m", usage: u, stopReason, timestamp: 2 },
    });
    const system = (tools: boolean) => ({
      role: "system",
      content: `system ${s.text}`,
      ...(s.pick % 2 === 0 ? { sections: { rules: `rule ${s.pick % 7}` } } : {}),
      ...(tools ? { toolsAdded: [{ name: `tool${s.pick % 3}`, description: s.text }], toolsRemoved: [{ name: `tool${(s.pick + 1) % 3}` }] } : {}),
      timestamp: 5,
    });
    let value: Record<string, unknown>;
    switch (s.kind) {
      case "user":
        value = { type: "message", ...base, message: { role: "user", content: s.text, timestamp: 1 } };
        break;
      case "assistant":
        value = assistant("stop", usage(s.usage));
        break;
      case "assistant-zero":
        value = assistant("stop", zero);
        break;
      case "assistant-aborted":
        value = assistant("aborted", usage(s.usage));
        break;
      case "tool":
        value = { type: "message", ...base, message: { role: "toolResult", toolCallId: "t", toolName: "bash", content: [{ type: "text", text: s.text.repeat(4) }], isError: false, timestamp: 3 } };
        break;
      case "system":
      case "system-tools":
        value = { type: "message", ...base, message: system(s.kind === "system-tools") };
        break;
      case "edit-omit":
        value = { type: "context_edit", ...base, targetId: target, replacement: null };
        break;
      case "edit-replace":
        value = { type: "context_edit", ...base, targetId: target, replacement: { content: `edited ${s.text.repeat(3)}` } };
        break;
      case "compaction":
      case "compaction-system":
        value = {
          type: "compaction",
          ...base,
          summary: `compacted ${s.text}`,
          firstKeptEntryId: target,
          tokensBefore: 5,
          ...(s.kind === "compaction-system" ? { systemMessage: system(s.pick % 3 === 0) } : {}),
        };
        break;
      case "usage-entry":
        value = { type: "usage", ...base, kind: "cache_warm", provider: "p", model: "m", usage: usage(s.usage) };
        break;
      case "custom_message":
        value = { type: "custom_message", ...base, customType: "x", content: s.text, display: true };
        break;
      case "branch_summary":
        value = { type: "branch_summary", ...base, fromId: "f", summary: s.pick % 4 === 0 ? "" : `summary ${s.text}` };
        break;
      case "model_change":
        value = { type: "model_change", ...base, provider: "q", modelId: `n${s.pick % 3}` };
        break;
    }
    this.ids.push(id);
    this.leaf = id;
    return JSON.stringify(value);
  }

  text(): string {
    return this.lines.map((l) => `${l}\n`).join("");
  }
}

/** 0.73-era opening turns (no pi 1.x marker). */
const plain073: fc.Arbitrary<Step15[]> = fc.array(
  fc.record({ kind: fc.constantFrom<Kind15>("user", "assistant", "tool", "custom_message"), earlier: fc.constant(false), pick: fc.nat(), text: fc.string({ maxLength: 40 }), usage: fc.integer({ min: 1, max: 200_000 }) }),
  { minLength: 0, maxLength: 5 },
);
/** Longer 0.73-era openings, so that what is prepared ahead runs in many chunks of many entries. */
const longPlain073: fc.Arbitrary<Step15[]> = fc.array(
  fc.record({ kind: fc.constantFrom<Kind15>("user", "assistant", "tool", "custom_message"), earlier: fc.constant(false), pick: fc.nat(), text: fc.string({ maxLength: 40 }), usage: fc.integer({ min: 1, max: 200_000 }) }),
  { minLength: 0, maxLength: 60, size: "max" },
);
const appends = fc.array(fc.array(step15, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 8 });
/** Each batch with what the background prepared ahead before it arrived (context edits then find the running estimate absent, partial or whole). */
const preparedAppends = fc.array(fc.tuple(fc.array(step15, { minLength: 1, maxLength: 5 }), prepareBudget), { minLength: 1, maxLength: 8 });

function comparable(f: BranchFacts): unknown {
  return { ...f, labels: [...f.labels] };
}

describe("pi 1.5's context token rule", () => {
  it("live facts after random pi 1.5 appends, with any amount prepared ahead before each: usage equals semanticsFor('1.5').contextUsage from scratch", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(longPlain073, preparedAppends, async (start, batches) => {
        const path = join(dir, `live${run++}.jsonl`);
        const file = new File15();
        for (const s of start) file.lines.push(file.line(s));
        writeFileSync(path, file.text());
        let session = await openSession(path);
        const live = new LiveSessionFacts(session, pi15ContextTokenRule);
        expect(live.current.usage).toEqual(semanticsFor("1.5").contextUsage(openSessionSync(path).pathTo()));
        for (const [batch, budget] of batches) {
          expect(prepareWithin(live, budget)).toBe(live.preparedAhead);
          const added = batch.map((s) => file.line(s));
          file.lines.push(...added);
          appendFileSync(path, added.map((l) => `${l}\n`).join(""));
          session = (await refreshSession(session)).session;
          const facts = live.update(session);
          const fresh = openSessionSync(path);
          expect(facts.usage).toEqual(semanticsFor("1.5").contextUsage(fresh.pathTo()));
          expect(comparable(facts)).toEqual(comparable(branchFactsFromScratch(fresh, pi15ContextTokenRule)));
        }
      }),
      { numRuns: 60 },
    );
  });

  it("catalogue rows after random appends: a 0.73-era row switches to pi 1.5's count at its first marker, and equals it from scratch", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(plain073, appends, async (start, batches) => {
        const folder = join(dir, `cat${run}`);
        const cache = join(dir, `cache${run++}`);
        const path = join(`${folder}.jsonl`);
        const file = new File15();
        for (const s of start) file.lines.push(file.line(s));
        writeFileSync(path, file.text());
        const catalogue = await SessionCatalogue.open(cache, { defaultVersion: "0.73" });
        let row = await catalogue.refresh(path);
        for (let i = 0; i <= batches.length; i++) {
          const fresh = openSessionSync(path);
          const marked = fresh.index.entries.some((m) => m.type === "context_edit" || m.type === "usage" || (m.type === "message" && m.role === "system")) || fresh.index.entries.some((m) => m.type === "compaction" && (fresh.entryAt(m) as { systemMessage?: unknown }).systemMessage);
          expect(row!.pi1xMarker !== null).toBe(marked);
          const expected = semanticsFor(marked ? "1.5" : "0.73").contextUsage(fresh.pathTo());
          expect({ tokens: row!.contextTokens, source: row!.contextSource, messageCount: row!.contextMessages }).toEqual(expected);
          expect(row!.size).toBe(statSync(path).size);
          if (i === batches.length) break;
          const added = batches[i]!.map((s) => file.line(s));
          file.lines.push(...added);
          appendFileSync(path, added.map((l) => `${l}\n`).join(""));
          row = await catalogue.refresh(path);
        }
      }),
      { numRuns: 40 },
    );
  });
});
