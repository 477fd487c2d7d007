import type { Todo } from "./types.js";

export type ExportFormat = "csv" | "md";

export const EXPORT_FORMATS: readonly ExportFormat[] = ["csv", "md"];

const CSV_COLUMNS = ["id", "text", "priority", "tags", "due", "createdAt"] as const;

/** RFC 4180 quoting: only when needed, with quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One row per todo; tags are space-separated inside one field. Lines end in CRLF as RFC 4180 asks. */
export function toCsv(todos: Todo[]): string {
  const rows = [CSV_COLUMNS.join(",")];
  for (const todo of todos) {
    const fields = [String(todo.id), todo.text, todo.priority, todo.tags.join(" "), todo.due ?? "", todo.createdAt];
    rows.push(fields.map(csvField).join(","));
  }
  return `${rows.join("\r\n")}\r\n`;
}

/** A Markdown task list grouped by first tag, untagged todos last. */
export function toMarkdown(todos: Todo[], title = "Todos"): string {
  const groups = new Map<string, Todo[]>();
  for (const todo of todos) {
    const key = todo.tags[0] ?? "";
    const group = groups.get(key) ?? [];
    group.push(todo);
    groups.set(key, group);
  }
  const keys = [...groups.keys()].sort((a, b) => (a === "" ? 1 : b === "" ? -1 : a.localeCompare(b)));
  const lines = [`# ${title}`, ""];
  for (const key of keys) {
    lines.push(key === "" ? "## Untagged" : `## #${key}`, "");
    for (const todo of groups.get(key) ?? []) {
      lines.push(`- [ ] ${escapeMarkdown(todo.text)}${markdownExtras(todo)}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

function markdownExtras(todo: Todo): string {
  const extras: string[] = [];
  if (todo.priority === "high") extras.push("**high**");
  if (todo.due) extras.push(`due ${todo.due}`);
  const otherTags = todo.tags.slice(1).map((tag) => `#${tag}`);
  extras.push(...otherTags);
  return extras.length > 0 ? ` (${extras.join(", ")})` : "";
}

function escapeMarkdown(text: string): string {
  return text.replace(/([\\`*_[\]])/g, "\\$1");
}

export function renderExport(format: ExportFormat, todos: Todo[]): string {
  switch (format) {
    case "csv":
      return toCsv(todos);
    case "md":
      return toMarkdown(todos);
  }
}
