// The Sessions view's order, filters and fork threading (views/sessions-order.ts)
// and the header fields it groups and threads by (session-header.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionFacts } from "../../../src/extension/session-facts.js";
import { readSessionHeaderFields } from "../../../src/extension/session-header.js";
import { compareSessions, firstInOrder, passesFilters, threadForks, type SessionSort } from "../../../src/extension/views/sessions-order.js";

function facts(path: string, f: Partial<SessionFacts> & { cost?: number }): SessionFacts {
  return {
    path,
    title: path,
    name: null,
    entryCount: 1,
    leafId: null,
    usage: { tokens: 0, source: "usage", messageCount: 0 } as unknown as SessionFacts["usage"],
    model: null,
    contextWindow: undefined,
    compaction: {} as SessionFacts["compaction"],
    wouldCompact: false,
    threshold: undefined,
    hasCompaction: false,
    needsMigration: false,
    headerMissing: false,
    problems: 0,
    lastActivity: new Date(0),
    messageCount: 0,
    sizeBytes: 0,
    agent: "pi",
    piVersion: "0.73",
    piVersionReason: "the default",
    totals: { tokens: 0, cost: f.cost ?? 0 },
    ...f,
  };
}

describe("compareSessions", () => {
  const rows = new Map<string, SessionFacts>([
    ["/a", facts("/a", { title: "zeta", lastActivity: new Date(3000), cost: 0.5, sizeBytes: 10, usage: { tokens: 900 } as SessionFacts["usage"] })],
    ["/b", facts("/b", { title: "Alpha", lastActivity: new Date(1000), cost: 2.25, sizeBytes: 30, usage: { tokens: 100 } as SessionFacts["usage"] })],
    ["/c", facts("/c", { title: "mid", lastActivity: new Date(2000), sizeBytes: 20, usage: { tokens: 500 } as SessionFacts["usage"] })],
  ]);
  const order = (sort: SessionSort): string[] => ["/a", "/b", "/c", "/unread"].sort((x, y) => compareSessions(sort, x, y, (p) => rows.get(p)));
  it("sorts largest first (names A→Z), rows not read yet last", () => {
    expect(order("activity")).toEqual(["/a", "/c", "/b", "/unread"]);
    expect(order("cost")).toEqual(["/b", "/a", "/c", "/unread"]);
    expect(order("size")).toEqual(["/b", "/c", "/a", "/unread"]);
    expect(order("tokens")).toEqual(["/a", "/c", "/b", "/unread"]);
    expect(order("name")).toEqual(["/b", "/c", "/a", "/unread"]);
  });
});

describe("passesFilters", () => {
  it("every filter must hold; unread rows pass only without filters", () => {
    const named = facts("/n", { name: "x", hasCompaction: true });
    const over = facts("/o", { wouldCompact: true });
    expect(passesFilters([], undefined)).toBe(true);
    expect(passesFilters(["named"], undefined)).toBe(false);
    expect(passesFilters(["named"], named)).toBe(true);
    expect(passesFilters(["named", "compacted"], named)).toBe(true);
    expect(passesFilters(["named", "overThreshold"], named)).toBe(false);
    expect(passesFilters(["overThreshold"], over)).toBe(true);
    expect(passesFilters(["compacted"], over)).toBe(false);
  });
});

describe("threadForks", () => {
  it("puts forks under the session their parentSession names (path, id or file name); a cycle is cut once", () => {
    const headers: Record<string, { id: string; parentSession?: string }> = {
      "/s/p.jsonl": { id: "P" },
      "/s/f1.jsonl": { id: "F1", parentSession: "/s/p.jsonl" },
      "/s/f2.jsonl": { id: "F2", parentSession: "F1" },
      "/s/f3.jsonl": { id: "F3", parentSession: "/elsewhere/p.jsonl" },
      "/s/gone.jsonl": { id: "G", parentSession: "/s/deleted.jsonl" },
      "/s/x.jsonl": { id: "X", parentSession: "Y" },
      "/s/y.jsonl": { id: "Y", parentSession: "X" },
    };
    const threads = threadForks(Object.keys(headers), (p) => headers[p]);
    expect(threads.top).toEqual(["/s/p.jsonl", "/s/gone.jsonl", "/s/x.jsonl"]);
    expect(threads.forks.get("/s/x.jsonl")).toEqual(["/s/y.jsonl"]);
    expect(threads.forks.get("/s/p.jsonl")).toEqual(["/s/f1.jsonl", "/s/f3.jsonl"]);
    expect(threads.forks.get("/s/f1.jsonl")).toEqual(["/s/f2.jsonl"]);
  });
});

describe("readSessionHeaderFields", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pi-sessions-header-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  it("reads id, cwd and parentSession from the first line, past a BOM and a long line; not a header → undefined", () => {
    const long = "é".repeat(10_000);
    const file = join(dir, "a.jsonl");
    writeFileSync(file, `\uFEFF${JSON.stringify({ type: "session", version: 3, id: "abc", timestamp: "t", cwd: `/w/${long}`, parentSession: "/s/p.jsonl" })}\n{"type":"message"}\n`);
    expect(readSessionHeaderFields(file)).toEqual({ id: "abc", cwd: `/w/${long}`, parentSession: "/s/p.jsonl" });
    const other = join(dir, "b.jsonl");
    writeFileSync(other, `{"type":"message","id":"x"}\n`);
    expect(readSessionHeaderFields(other)).toBeUndefined();
    expect(readSessionHeaderFields(join(dir, "missing.jsonl"))).toBeUndefined();
  });
});

describe("firstInOrder: the first rows of a long group without sorting them all", () => {
  it("equals sorting all and taking the first `limit`, for every sort, with ties, on random rows", () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const count = random(60);
      const byPath = new Map<string, SessionFacts>();
      for (let i = 0; i < count; i++) {
        const path = `/s/${random(1000)}-${i}.jsonl`;
        // Few distinct values: many ties, broken by path.
        byPath.set(path, facts(path, { title: `t${random(5)}`, lastActivity: new Date(random(4) * 1000), sizeBytes: random(3), cost: random(3) }));
      }
      const paths = [...byPath.keys()];
      const limit = 1 + random(20);
      for (const sort of ["activity", "cost", "size", "tokens", "name"] as SessionSort[]) {
        const compare = (a: string, b: string): number => compareSessions(sort, a, b, (p) => byPath.get(p));
        expect(firstInOrder(paths, limit, compare)).toEqual([...paths].sort(compare).slice(0, limit));
      }
    }
  });
});
