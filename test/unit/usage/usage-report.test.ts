// The usage report over catalogue rows of real session files: local days split
// at the local midnight of the process's time zone (TZ), across daylight-saving
// changes and in zones a quarter or half hour off UTC; periods; stacks; forks'
// copied spend left out when the session they came from is counted; roll-up.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { rowVersionPolicy, type CatalogueRow } from "../../../src/core/catalogue/catalogue-row.js";
import { readRecord } from "../../../src/core/catalogue/read-record.js";
import { periodDays, usageReport } from "../../../src/core/usage/index.js";

const dir = mkdtempSync(join(tmpdir(), "pi-sessions-usage-report-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const savedTz = process.env.TZ;
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

let n = 0;
interface Answer {
  at: string;
  cost: number;
  input?: number;
  provider?: string;
  model?: string;
}

function usage(cost: number, input = 10) {
  return { input, output: 2, cacheRead: 3, cacheWrite: 4, totalTokens: input + 9, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } };
}

/** A session file as pi writes one: a header, then per answer a user message and the assistant's answer with usage. */
function session(answers: Answer[], header: { cwd?: string; parentSession?: string; timestamp?: string; extra?: object[] } = {}): CatalogueRow {
  const id = `s${++n}`;
  const lines: object[] = [{ type: "session", version: 3, id, timestamp: header.timestamp ?? "2026-01-01T00:00:00.000Z", cwd: header.cwd ?? "/p", ...(header.parentSession ? { parentSession: header.parentSession } : {}) }];
  let parent: string | null = null;
  let k = 0;
  for (const a of answers) {
    const u = `${id}u${k}`;
    const r = `${id}a${k++}`;
    lines.push({ type: "message", id: u, parentId: parent, timestamp: a.at, message: { role: "user", content: "hi", timestamp: Date.parse(a.at) } });
    lines.push({
      type: "message",
      id: r,
      parentId: u,
      timestamp: a.at,
      message: { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: a.provider ?? "anthropic", model: a.model ?? "claude", usage: usage(a.cost, a.input), stopReason: "stop", timestamp: Date.parse(a.at) },
    });
    parent = r;
  }
  for (const e of header.extra ?? []) lines.push({ ...e, parentId: parent });
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  const record = readRecord(path, rowVersionPolicy({ defaultVersion: "0.73" }));
  if (record.kind !== "session") throw new Error("no session");
  return record.row;
}

const costByDay = (rows: CatalogueRow[], options = {}) => Object.fromEntries(usageReport(rows, options).days.map((d) => [d.day, Math.round(d.totals.cost * 1000) / 1000]));

describe("usage report", () => {
  it("splits days at local midnight across the spring-forward and fall-back changes (Europe/Berlin)", () => {
    process.env.TZ = "Europe/Berlin";
    const rows = [
      session([
        { at: "2026-03-28T22:59:59.000Z", cost: 1 }, // 23:59:59 CET, the 28th
        { at: "2026-03-28T23:00:00.000Z", cost: 2 }, // 00:00 CET, the 29th (a 23-hour day)
        { at: "2026-03-29T21:59:59.000Z", cost: 4 }, // 23:59:59 CEST, the 29th
        { at: "2026-03-29T22:00:00.000Z", cost: 8 }, // 00:00 CEST, the 30th
        { at: "2026-10-24T22:00:00.000Z", cost: 16 }, // 00:00 CEST, the 25th (a 25-hour day)
        { at: "2026-10-25T22:59:59.000Z", cost: 32 }, // 23:59:59 CET, the 25th
        { at: "2026-10-25T23:00:00.000Z", cost: 64 }, // 00:00 CET, the 26th
      ]),
    ];
    const days = costByDay(rows, { since: "2026-03-28", until: "2026-03-30" });
    expect(days).toEqual({ "2026-03-28": 1, "2026-03-29": 6, "2026-03-30": 8 });
    const autumn = costByDay(rows, { since: "2026-10-24", until: "2026-10-26" });
    expect(autumn).toEqual({ "2026-10-24": 0, "2026-10-25": 48, "2026-10-26": 64 });
  });

  it("the same spend falls on other days in New York, Kathmandu (UTC+5:45) and Adelaide (UTC+10:30 / +9:30)", () => {
    const answers = [
      { at: "2026-04-04T18:14:59.000Z", cost: 1 },
      { at: "2026-04-04T18:15:00.000Z", cost: 2 },
      { at: "2026-04-04T23:30:00.000Z", cost: 4 },
    ];
    process.env.TZ = "Asia/Kathmandu";
    const rows = [session(answers)];
    expect(costByDay(rows)).toEqual({ "2026-04-04": 1, "2026-04-05": 6 });
    process.env.TZ = "America/New_York";
    expect(costByDay(rows)).toEqual({ "2026-04-04": 7 });
    // Adelaide leaves summer time at 03:00 local on 5 April 2026 (16:30 UTC the 4th): midnights at 13:30 UTC then 14:30 UTC.
    process.env.TZ = "Australia/Adelaide";
    const adelaide = [session([{ at: "2026-04-04T13:29:59.000Z", cost: 1 }, { at: "2026-04-04T13:30:00.000Z", cost: 2 }, { at: "2026-04-05T14:29:59.000Z", cost: 4 }, { at: "2026-04-05T14:30:00.000Z", cost: 8 }])];
    expect(costByDay(adelaide)).toEqual({ "2026-04-04": 1, "2026-04-05": 6, "2026-04-06": 8 });
  });

  it("periods end on the local day of now and fill days without spend; totals count only the period", () => {
    process.env.TZ = "UTC";
    const now = Date.parse("2026-05-10T12:00:00.000Z");
    expect(periodDays("7d", now)).toEqual({ since: "2026-05-04", until: "2026-05-10" });
    expect(periodDays("all", now)).toEqual({});
    const rows = [session([{ at: "2026-05-01T10:00:00.000Z", cost: 5 }, { at: "2026-05-08T10:00:00.000Z", cost: 3 }])];
    const week = usageReport(rows, periodDays("7d", now));
    expect(week.days.map((d) => d.day)).toEqual(["2026-05-04", "2026-05-05", "2026-05-06", "2026-05-07", "2026-05-08", "2026-05-09", "2026-05-10"]);
    expect(week.totals.cost).toBe(3);
    expect(week.sessions).toBe(1);
    expect(usageReport(rows).totals.cost).toBe(8);
    expect(usageReport(rows, { since: "2026-05-09" }).sessions).toBe(0);
  });

  it("stacks by model, project or kind; compaction and branch-summary spend apart; top sessions and projects by cost", () => {
    process.env.TZ = "UTC";
    const a = session([{ at: "2026-05-01T10:00:00.000Z", cost: 5, model: "opus" }, { at: "2026-05-01T11:00:00.000Z", cost: 1, provider: "openai", model: "gpt" }], {
      cwd: "/a",
      extra: [
        { type: "compaction", id: "c1", timestamp: "2026-05-01T12:00:00.000Z", summary: "s", firstKeptEntryId: "x", tokensBefore: 1, usage: usage(0.5) },
        { type: "branch_summary", id: "b1", timestamp: "2026-05-01T12:30:00.000Z", fromId: "x", summary: "s", usage: usage(0.25) },
      ],
    });
    const b = session([{ at: "2026-05-02T10:00:00.000Z", cost: 2, model: "opus" }], { cwd: "/b" });
    const byModel = usageReport([a, b]);
    expect(byModel.stackKeys).toEqual(["anthropic/opus", "openai/gpt", "compaction", "branch summary"]);
    expect(byModel.days[0]!.stack["anthropic/opus"]!.cost).toBe(5);
    expect(byModel.byKind.find((k) => k.kind === "compaction")!.totals.cost).toBe(0.5);
    expect(byModel.byKind.find((k) => k.kind === "branch_summary")!.totals.cost).toBe(0.25);
    expect(byModel.models.map((m) => [m.model, m.totals.cost])).toEqual([["anthropic/opus", 7], ["openai/gpt", 1]]);
    expect(byModel.totals.cost).toBeCloseTo(8.75, 12);
    expect(byModel.bySession.map((s) => s.path)).toEqual([a.path, b.path]);
    expect(byModel.projects.map((p) => p.cwd)).toEqual(["/a", "/b"]);
    expect(usageReport([a, b], { stack: "project" }).stackKeys).toEqual(["/a", "/b"]);
    expect(usageReport([a, b], { stack: "kind" }).stackKeys).toEqual(["answers", "compaction", "branch summary"]);
  });

  it("leaves out what a fork copied when the session it came from is counted; rolls forks into it on request", () => {
    process.env.TZ = "UTC";
    const parent = session([{ at: "2026-05-01T10:00:00.000Z", cost: 5 }]);
    // pi's fork: the parent's entries copied with their timestamps, under a header written at the fork.
    const fork = session([{ at: "2026-05-01T10:00:00.000Z", cost: 5 }, { at: "2026-05-03T10:00:00.000Z", cost: 2 }], { parentSession: parent.path, timestamp: "2026-05-03T09:00:00.000Z" });
    const both = usageReport([parent, fork]);
    expect(both.totals.cost).toBe(7);
    expect(both.inheritedLeftOut.cost).toBe(5);
    expect(both.bySession.map((s) => [s.path, s.totals.cost])).toEqual([[parent.path, 5], [fork.path, 2]]);
    // Alone (the parent not in scope), the fork's file is all there is: every answer counts.
    expect(usageReport([fork]).totals.cost).toBe(7);
    const rolled = usageReport([parent, fork], { rollUp: true });
    expect(rolled.bySession).toHaveLength(1);
    expect(rolled.bySession[0]).toMatchObject({ path: parent.path, rolledUp: 1 });
    expect(rolled.bySession[0]!.totals.cost).toBe(7);
  });
});
