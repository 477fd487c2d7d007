import { describe, expect, it } from "vitest";
import { computeStats, formatStats } from "../src/stats.js";
import type { Todo } from "../src/types.js";
import { NOW } from "./helpers.js";

function todo(overrides: Partial<Todo> = {}): Todo {
  return { id: 1, text: "x", priority: "normal", tags: [], createdAt: NOW.toISOString(), ...overrides };
}

describe("computeStats", () => {
  it("counts by priority", () => {
    const stats = computeStats([todo({ priority: "high" }), todo(), todo(), todo({ priority: "low" })], NOW);
    expect(stats.total).toBe(4);
    expect(stats.byPriority).toEqual({ high: 1, normal: 2, low: 1 });
  });

  it("splits due dates into overdue and due this week", () => {
    const stats = computeStats([todo({ due: "2024-05-19" }), todo({ due: "2024-05-20" }), todo({ due: "2024-05-26" }), todo({ due: "2024-05-27" })], NOW);
    expect(stats.overdue).toBe(1);
    expect(stats.dueThisWeek).toBe(2);
  });

  it("ranks tags by count, then name", () => {
    const stats = computeStats([todo({ tags: ["work", "home"] }), todo({ tags: ["home"] }), todo({ tags: ["admin"] }), todo({ tags: ["zoo"] })], NOW, 3);
    expect(stats.topTags).toEqual([
      { tag: "home", count: 2 },
      { tag: "admin", count: 1 },
      { tag: "work", count: 1 },
    ]);
  });
});

describe("formatStats", () => {
  it("says so when there is nothing", () => {
    expect(formatStats(computeStats([], NOW))).toEqual(["No todos."]);
  });

  it("prints only the lines that have something to say", () => {
    expect(formatStats(computeStats([todo({ priority: "high", due: "2024-05-10", tags: ["admin"] }), todo()], NOW))).toEqual([
      "2 todos: 1 high, 1 normal, 0 low",
      "1 overdue",
      "Top tags: #admin (1)",
    ]);
  });
});
