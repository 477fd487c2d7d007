// What Clean Up proposes, and the question it asks before anything moves.
import { describe, expect, it } from "vitest";
import { formatBytes, proposeCleanup, trashConfirmation } from "../../../src/core/discovery/cleanup-proposal.js";

const now = new Date("2026-06-01T12:00:00Z");
const daysAgo = (d: number): Date => new Date(now.getTime() - d * 24 * 3600 * 1000);

describe("proposeCleanup", () => {
  const sessions = [
    { path: "/s/empty.jsonl", size: 300, lastActivity: daysAgo(2), conversationMessages: 0 },
    { path: "/s/old.jsonl", size: 5_000, lastActivity: daysAgo(200), conversationMessages: 12 },
    { path: "/s/big.jsonl", size: 80 * 1024 * 1024, lastActivity: daysAgo(1), conversationMessages: 900 },
    { path: "/s/recent-empty.jsonl", size: 200, lastActivity: new Date(now.getTime() - 60_000), conversationMessages: 0 },
    { path: "/s/keep.jsonl", size: 9_000, lastActivity: daysAgo(5), conversationMessages: 40 },
  ];

  it("proposes by emptiness, age and size, largest first, with every reason; never a session active in the last minutes", () => {
    const proposed = proposeCleanup(sessions, { empty: true, olderThanDays: 90, largerThanBytes: 50 * 1024 * 1024, now });
    expect(proposed.map((p) => [p.path, p.reasons])).toEqual([
      ["/s/big.jsonl", ["large"]],
      ["/s/old.jsonl", ["old"]],
      ["/s/empty.jsonl", ["empty"]],
    ]);
    expect(proposed.find((p) => p.path === "/s/old.jsonl")!.ageDays).toBe(200);
  });

  it("only the criteria asked for", () => {
    expect(proposeCleanup(sessions, { empty: true, now }).map((p) => p.path)).toEqual(["/s/empty.jsonl"]);
    expect(proposeCleanup(sessions, { empty: false, olderThanDays: 3, now }).map((p) => p.path)).toEqual(["/s/keep.jsonl", "/s/old.jsonl"]);
    expect(proposeCleanup(sessions, { empty: false, now })).toEqual([]);
  });
});

describe("trashConfirmation", () => {
  it("names every file with its size and the total", () => {
    const { message, detail } = trashConfirmation([
      { path: "/a/one.jsonl", size: 2048 },
      { path: "/b/two.jsonl", size: 3 * 1024 * 1024 },
    ]);
    expect(message).toBe("Move 2 sessions (3.0 MB) to the trash?");
    expect(detail).toContain("one.jsonl (2.0 KB)");
    expect(detail).toContain("two.jsonl (3.0 MB)");
  });

  it("past 12 files: the first 12 and how many more", () => {
    const files = Array.from({ length: 15 }, (_, i) => ({ path: `/s/f${i}.jsonl`, size: 100 }));
    const { message, detail } = trashConfirmation(files);
    expect(message).toBe("Move 15 sessions (1.5 KB) to the trash?");
    expect(detail).toContain("f11.jsonl");
    expect(detail).not.toContain("f12.jsonl");
    expect(detail).toContain("… and 3 more");
  });

  it("formatBytes", () => {
    expect([formatBytes(0), formatBytes(1023), formatBytes(1024), formatBytes(15 * 1024 * 1024), formatBytes(3 * 1024 ** 3)]).toEqual(["0 B", "1023 B", "1.0 KB", "15 MB", "3.0 GB"]);
  });
});
