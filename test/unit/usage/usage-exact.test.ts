// Exact with pi: per session, the usage report's totals are what pi itself
// recorded over every assistant message, usage entry, tool result, compaction
// and branch summary in the file, read through the catalogue's own row (its
// spend cells). pi 1.5.2: its /session numbers (AgentSession.getSessionStats,
// called on pi's SessionManager of the file) and its cost per model
// (getUsageCostBreakdown), on the 14 files pi 1.5.2 wrote and random sessions
// written by its own SessionManager. pi 0.73.1: random sessions written by its
// SessionManager, against every assistant usage pi's loader reads back, and
// where the file is one branch without a compaction against pi 0.73.1's own
// getSessionStats (which counts the current context's answers only). An answer
// without usage (pi's functions throw on it) counts 0: it is left out of what
// pi's functions are given.

import { copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { AgentSession, buildSessionContext, SessionManager } from "@mariozechner/pi-coding-agent";
import { afterAll, describe, expect, it } from "vitest";
import { rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { readRecord } from "../../../src/core/catalogue/read-record.js";
import { usageReport, type UsageReport } from "../../../src/core/usage/index.js";
import { PI15_FIXTURES_DIR } from "../../support/pi15/expected-fixtures.js";
import { describePi15 } from "../../support/pi15/oracle.js";
import { generateRandomSession } from "../../support/random-session.js";

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-usage-exact-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const versionOf = rowVersionPolicy({ defaultVersion: "0.73" });

function rowOf(path: string): CatalogueRow {
  const record = readRecord(path, versionOf);
  if (record.kind !== "session") throw new Error(`${path} is no session`);
  return record.row;
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function expectTotals(report: UsageReport, tokens: { input: number; output: number; cacheRead: number; cacheWrite: number }, cost: number): void {
  expect({ input: report.totals.input, output: report.totals.output, cacheRead: report.totals.cacheRead, cacheWrite: report.totals.cacheWrite }).toEqual({
    input: tokens.input,
    output: tokens.output,
    cacheRead: tokens.cacheRead,
    cacheWrite: tokens.cacheWrite,
  });
  expect(report.totals.tokens).toBe(tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite);
  expect(close(report.totals.cost, cost), `${report.totals.cost} vs ${cost}`).toBe(true);
}

describePi15("usage report vs pi 1.5.2's /session and its cost per model", (oracle) => {
  const files = (): string[] => readdirSync(PI15_FIXTURES_DIR).filter((f) => f.endsWith(".jsonl")).map((f) => join(PI15_FIXTURES_DIR, f));

  it("on the 14 files pi 1.5.2 wrote and 80 random sessions its SessionManager wrote", async () => {
    const paths = [...files()];
    for (let seed = 1; seed <= 80; seed++) paths.push((await oracle().generate(seed * 7919, dir)).path);
    const seen = { summaries: 0, usageEntries: 0, toolResults: 0, models: 0, withoutUsage: 0 };
    for (const path of paths) {
      const { stats, breakdown, withoutUsage } = await oracle().usageStats(path);
      if (withoutUsage > 0) seen.withoutUsage++;
      const row = rowOf(path);
      const report = usageReport([row]);
      expectTotals(report, stats.tokens, stats.cost);
      // The row's own totals (what lists show) are the same numbers.
      expect(report.totals.input).toBe(row.input);
      expect(close(report.totals.cost, row.cost)).toBe(true);
      // pi's breakdown: per model key, and "Tools/summaries" for tool results, compactions and branch summaries.
      const kind = (k: string) => report.byKind.find((b) => b.kind === k)!.totals;
      const tools = ["toolResult", "compaction", "branch_summary"].map(kind);
      const ours = [
        ...report.models.map((m) => ({ key: m.model, cost: m.totals.cost, tokens: m.totals.tokens })),
        { key: "Tools/summaries", cost: tools.reduce((s, t) => s + t.cost, 0), tokens: tools.reduce((s, t) => s + t.tokens, 0) },
      ].filter((e) => e.cost > 0 || e.tokens > 0);
      expect(ours.map((e) => e.key).sort()).toEqual(breakdown.map((e) => e.key).sort());
      for (const theirs of breakdown) {
        const mine = ours.find((e) => e.key === theirs.key)!;
        expect(mine.tokens).toBe(theirs.tokens);
        expect(close(mine.cost, theirs.cost), `${theirs.key}: ${mine.cost} vs ${theirs.cost}`).toBe(true);
      }
      if (kind("compaction").tokens + kind("branch_summary").tokens > 0) seen.summaries++;
      if (kind("usage").tokens > 0) seen.usageEntries++;
      if (kind("toolResult").tokens > 0) seen.toolResults++;
      if (report.models.length > 1) seen.models++;
    }
    // The corpus exercises what is counted apart.
    expect(seen.summaries).toBeGreaterThan(5);
    expect(seen.usageEntries).toBeGreaterThan(2);
    expect(seen.toolResults).toBeGreaterThan(2);
    expect(seen.models).toBeGreaterThan(5);
    expect(seen.withoutUsage).toBeLessThan(paths.length);
  }, 240_000);
});

describe("usage report vs pi 0.73.1", () => {
  it("every assistant usage in the file (pi 0.73.1's loader), and its /session numbers on single-branch sessions", () => {
    let single = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const generated = generateRandomSession(seed * 104729, dir);
      const copy = join(dir, `copy-${basename(generated.path)}`);
      copyFileSync(generated.path, copy);
      const sm = SessionManager.open(copy);
      const entries = sm.getEntries() as unknown as { type: string; message?: { role: string; usage?: { input: number; output: number; cacheRead: number; cacheWrite: number; cost: { total: number } } } }[];
      const sum = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
      let cost = 0;
      for (const e of entries) {
        const u = e.type === "message" && e.message?.role === "assistant" ? e.message.usage : undefined;
        if (!u) continue;
        sum.input += u.input;
        sum.output += u.output;
        sum.cacheRead += u.cacheRead;
        sum.cacheWrite += u.cacheWrite;
        cost += u.cost.total;
      }
      const report = usageReport([rowOf(generated.path)]);
      expectTotals(report, sum, cost);
      // One branch, no compaction: pi 0.73.1's own getSessionStats over the context it builds sees every answer.
      const branch = sm.getBranch();
      const isLinear =
        branch.length === entries.length &&
        !entries.some((e) => e.type === "compaction" || e.type === "branch_summary" || (e.type === "message" && e.message?.role === "assistant" && !e.message.usage));
      if (isLinear) {
        const messages = buildSessionContext(branch as never).messages;
        const stats = (AgentSession.prototype as unknown as { getSessionStats(this: unknown): { tokens: typeof sum; cost: number } }).getSessionStats.call({
          state: { messages },
          sessionFile: copy,
          sessionId: "x",
          getContextUsage: () => undefined,
        });
        expectTotals(report, stats.tokens, stats.cost);
        single++;
      }
    }
    expect(single).toBeGreaterThan(0);
  });
});
