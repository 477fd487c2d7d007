// Public API for people who want to drive todo-cli from their own scripts.
export { HELP, run, UsageError, VERSION } from "./cli.js";
export { TodoStore, type ListOptions, type NewTodo, type SortKey, type TodoPatch } from "./store.js";
export { PRIORITIES, type Io, type Priority, type Todo, type TodoFile } from "./types.js";
export { formatList, formatTodo, pluralize, relativeDate } from "./util.js";
export { parseArgs, type ParsedArgs } from "./args.js";
export { resolveTodoFile } from "./config.js";
export { renderExport, toCsv, toMarkdown, type ExportFormat } from "./export.js";
export { computeStats, formatStats, type Stats } from "./stats.js";
