import type { Priority, Todo } from "./types.js";

const ANSI = {
  reset: "\u001b[0m",
  bold: "\u001b[1m",
  dim: "\u001b[2m",
  red: "\u001b[31m",
  yellow: "\u001b[33m",
  cyan: "\u001b[36m",
} as const;

type Style = keyof typeof ANSI;

export interface FormatOptions {
  color: boolean;
  now: Date;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function paint(text: string, style: Style, color: boolean): string {
  return color ? `${ANSI[style]}${text}${ANSI.reset}` : text;
}

export function padLeft(text: string, width: number): string {
  return text.length >= width ? text : " ".repeat(width - text.length) + text;
}

export function pluralize(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? "" : "s"}`;
}

export function priorityMarker(priority: Priority, color: boolean): string {
  switch (priority) {
    case "high":
      return paint("!", "red", color) + " ";
    case "low":
      return paint("·", "dim", color) + " ";
    case "normal":
      return "";
  }
}

/** "today", "tomorrow", "in 3 days", "yesterday", "5 days ago" (calendar days, UTC). */
export function relativeDate(isoDate: string, now: Date): string {
  const target = Date.parse(`${isoDate}T00:00:00Z`);
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Math.round((target - today) / DAY_MS);
  if (days === 0) return "today";
  if (days === 1) return "tomorrow";
  if (days === -1) return "yesterday";
  return days > 0 ? `in ${days} days` : `${-days} days ago`;
}

export function formatDue(isoDate: string, options: FormatOptions): string {
  const label = `due ${relativeDate(isoDate, options.now)}`;
  const overdue = Date.parse(`${isoDate}T23:59:59Z`) < options.now.getTime();
  return paint(label, overdue ? "red" : "yellow", options.color);
}

export function formatTodo(todo: Todo, options: FormatOptions): string {
  const id = paint(padLeft(String(todo.id), 3), "dim", options.color);
  const parts = [`${id}. ${priorityMarker(todo.priority, options.color)}${todo.text}`];
  if (todo.tags.length > 0) {
    parts.push(paint(todo.tags.map((tag) => `#${tag}`).join(" "), "cyan", options.color));
  }
  if (todo.due) parts.push(formatDue(todo.due, options));
  return parts.join("  ");
}

export function formatList(todos: Todo[], options: FormatOptions): string[] {
  const lines = todos.map((todo) => formatTodo(todo, options));
  lines.push(paint(pluralize(todos.length, "todo"), "dim", options.color));
  return lines;
}
