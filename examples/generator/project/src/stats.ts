import type { Priority, Todo } from "./types.js";
import { pluralize } from "./util.js";

export interface Stats {
  total: number;
  byPriority: Record<Priority, number>;
  overdue: number;
  dueThisWeek: number;
  topTags: Array<{ tag: string; count: number }>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function computeStats(todos: Todo[], now: Date, topTagCount = 3): Stats {
  const byPriority: Record<Priority, number> = { high: 0, normal: 0, low: 0 };
  const tagCounts = new Map<string, number>();
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  let overdue = 0;
  let dueThisWeek = 0;
  for (const todo of todos) {
    byPriority[todo.priority]++;
    for (const tag of todo.tags) tagCounts.set(tag, (tagCounts.get(tag) ?? 0) + 1);
    if (todo.due) {
      const due = Date.parse(`${todo.due}T00:00:00Z`);
      if (due < today) overdue++;
      else if (due < today + 7 * DAY_MS) dueThisWeek++;
    }
  }
  const topTags = [...tagCounts.entries()]
    .map(([tag, count]) => ({ tag, count }))
    .sort((a, b) => b.count - a.count || a.tag.localeCompare(b.tag))
    .slice(0, topTagCount);
  return { total: todos.length, byPriority, overdue, dueThisWeek, topTags };
}

export function formatStats(stats: Stats): string[] {
  if (stats.total === 0) return ["No todos."];
  const lines = [
    `${pluralize(stats.total, "todo")}: ${stats.byPriority.high} high, ${stats.byPriority.normal} normal, ${stats.byPriority.low} low`,
  ];
  if (stats.overdue > 0) lines.push(`${stats.overdue} overdue`);
  if (stats.dueThisWeek > 0) lines.push(`${stats.dueThisWeek} due in the next 7 days`);
  if (stats.topTags.length > 0) {
    lines.push(`Top tags: ${stats.topTags.map(({ tag, count }) => `#${tag} (${count})`).join(", ")}`);
  }
  return lines;
}
