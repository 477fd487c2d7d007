// A listed (not opened) session's facts from its catalogue row: the compaction
// settings and threshold are pi 1.5's for a 1.5 row (compaction.modelOverrides
// for the row's model, pi 1.5's error on a bad value) and pi 0.73's otherwise,
// the same as the facts of the opened session.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy } from "../../../src/core/catalogue/catalogue-row.js";
import { LiveSessionFacts } from "../../../src/core/live/live-facts.js";
import { sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { choosePiVersion, semanticsFor } from "../../../src/core/agent/index.js";
import { factsFromRow, sessionFacts, type FactsContext, type RowCompactionCache } from "../../../src/extension/session-facts.js";

const MODEL = "anthropic/claude-sonnet-4-5";
const root = mkdtempSync(join(tmpdir(), "row-facts-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function agentDir(settings: unknown): string {
  const dir = join(root, String(++n), "agent");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  return dir;
}

/** A session by the model, 100k tokens by its last usage; with a pi 1.x `usage` entry when `pi15`. */
function session(pi15: boolean, cwd: string) {
  const lines: unknown[] = [
    { type: "session", version: 3, id: "0197c000-0000-7000-8000-00000000fact", timestamp: "2026-03-01T10:00:00.000Z", cwd },
    { type: "message", id: "u1", parentId: null, timestamp: "2026-03-01T10:00:01.000Z", message: { role: "user", content: "hello", timestamp: 1 } },
    {
      type: "message", id: "a1", parentId: "u1", timestamp: "2026-03-01T10:00:02.000Z",
      message: {
        role: "assistant", content: [{ type: "text", text: "hi" }], provider: "anthropic", model: "claude-sonnet-4-5",
        usage: { input: 99_000, output: 1000, cacheRead: 0, cacheWrite: 0, totalTokens: 100_000 }, stopReason: "stop", timestamp: 2,
      },
    },
  ];
  if (pi15) {
    lines.push({
      type: "usage", id: "g1", parentId: "a1", timestamp: "2026-03-01T10:00:03.000Z", kind: "title", provider: "anthropic", model: "claude-sonnet-4-5",
      usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15 },
    });
  }
  const path = join(root, `s${++n}.jsonl`);
  const text = lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
  writeFileSync(path, text);
  return sessionFromBytes(Buffer.from(text), path);
}

function context(dir: string, window: (tokens: number) => number, tokens: number): FactsContext {
  return { agentDir: dir, trusted: true, overrides: {}, contextWindow: () => window(tokens) };
}

function rowOf(s: ReturnType<typeof session>) {
  const computed = rowFromSession(s, 1000, 0, rowVersionPolicy({}));
  if (!computed) throw new Error("no row");
  return computed.row;
}

describe("factsFromRow", () => {
  const settings = { compaction: { reserveTokens: 9000, modelOverrides: { [MODEL]: { reserveTokens: 50_000 } } } };

  it("a pi 1.5 row applies compaction.modelOverrides for its model: threshold and wouldCompact follow the override", () => {
    const dir = agentDir(settings);
    const s = session(true, root);
    const row = rowOf(s);
    expect(row.pi1xMarker).not.toBeNull();
    // A window 30k above the context: under pi 0.73's reserve (9k) it would not compact, under the override (50k) it does.
    const ctx = context(dir, (t) => t + 30_000, row.contextTokens);
    const facts = factsFromRow(row, ctx);
    expect(facts.piVersion).toBe("1.5");
    expect(facts.compaction.reserveTokens).toBe(50_000);
    expect(facts.threshold).toBe(row.contextTokens + 30_000 - 50_000);
    expect(facts.wouldCompact).toBe(true);
    expect(facts.settingsError).toBeUndefined();
    // The same as the opened session's facts.
    const choice = choosePiVersion({ session: s });
    const opened = sessionFacts(s, new LiveSessionFacts(s, semanticsFor(choice.version).contextTokenRule).current, choice, ctx);
    expect(opened.compaction).toEqual(facts.compaction);
    expect(opened.threshold).toBe(facts.threshold);
  });

  it("a pi 0.73 row ignores modelOverrides (pi 0.73 has none)", () => {
    const dir = agentDir(settings);
    const row = rowOf(session(false, root));
    const facts = factsFromRow(row, { ...context(dir, (t) => t + 30_000, row.contextTokens), piVersion: "0.73" });
    expect(facts.piVersion).toBe("0.73");
    expect(facts.compaction.reserveTokens).toBe(9000);
    expect(facts.wouldCompact).toBe(false);
  });

  it("the piVersion setting makes any row pi 1.5's", () => {
    const dir = agentDir(settings);
    const row = rowOf(session(false, root));
    const facts = factsFromRow(row, { ...context(dir, (t) => t + 30_000, row.contextTokens), piVersion: "1.5" });
    expect(facts.compaction.reserveTokens).toBe(50_000);
  });

  it("an override for another model changes nothing", () => {
    const dir = agentDir({ compaction: { reserveTokens: 9000, modelOverrides: { "openai/gpt-5": { reserveTokens: 50_000 } } } });
    const row = rowOf(session(true, root));
    expect(factsFromRow(row, context(dir, (t) => t + 30_000, row.contextTokens)).compaction.reserveTokens).toBe(9000);
  });

  it("a bad override gives pi 1.5's error and the defaults meanwhile", () => {
    const dir = agentDir({ compaction: { modelOverrides: { [MODEL]: { reserveTokens: -1 } } } });
    const row = rowOf(session(true, root));
    const facts = factsFromRow(row, context(dir, (t) => t + 30_000, row.contextTokens));
    expect(facts.settingsError).toBe(`Invalid compaction.modelOverrides["${MODEL}"].reserveTokens setting: -1. Expected a non-negative safe integer.`);
    expect(facts.compaction.reserveTokens).toBe(16384);
  });

  it("rows of one cwd, version and model share one resolution (the cache), others get their own", () => {
    const dir = agentDir(settings);
    const cache: RowCompactionCache = new Map();
    const row15 = rowOf(session(true, root));
    const row073 = rowOf(session(false, root));
    const ctx = context(dir, (t) => t + 30_000, row15.contextTokens);
    factsFromRow(row15, ctx, cache);
    factsFromRow(row15, ctx, cache);
    expect(cache.size).toBe(1);
    factsFromRow(row073, { ...ctx, piVersion: "0.73" }, cache);
    expect(cache.size).toBe(2);
    expect([...cache.values()].map((v) => v.compaction.reserveTokens).sort()).toEqual([50_000, 9000].sort());
  });
});
