import { writeFile } from "node:fs/promises";
import { flagBool, flagString, parseArgs, type ParsedArgs } from "./args.js";
import { resolveTodoFile, useColor } from "./config.js";
import { EXPORT_FORMATS, renderExport, type ExportFormat } from "./export.js";
import { computeStats, formatStats } from "./stats.js";
import { TodoStore, type ListOptions, type SortKey, type TodoPatch } from "./store.js";
import { PRIORITIES, type Io, type Priority } from "./types.js";
import { formatList, formatTodo, pluralize } from "./util.js";

export const VERSION = "0.3.0";

export const HELP = `todo - a tiny todo list for the terminal

Usage:
  todo add <text> [--priority low|normal|high] [--tag name] [--due YYYY-MM-DD]
  todo list [--tag name] [--priority p] [--sort id|priority|due]
  todo edit <id> [text] [--priority p] [--tag name] [--due YYYY-MM-DD]
  todo rm <id>
  todo clear --yes
  todo export [--format csv|md] [--output file] [--tag name]
  todo stats

Options:
  -h, --help      Show this help
  -v, --version   Show the version

The list is stored in $TODO_FILE, or ~/.todo.json when it is not set.`;

/** Thrown for bad input: printed without a stack trace, exit code 2. */
export class UsageError extends Error {}

/**
 * Runs one command and returns the exit code: 0 on success, 2 for usage
 * errors. Anything else (a corrupt todo file, a full disk) is thrown, so bin.ts
 * lets Node print it and exit with 1.
 */
export async function run(argv: readonly string[], io: Io): Promise<number> {
  const args = parseArgs(argv);
  if (flagBool(args.flags, "version")) {
    io.stdout(VERSION);
    return 0;
  }
  if (args.command === undefined || flagBool(args.flags, "help")) {
    io.stdout(HELP);
    return 0;
  }
  try {
    const store = await TodoStore.open(resolveTodoFile(io.env));
    switch (args.command) {
      case "add":
        return await cmdAdd(store, args, io);
      case "list":
      case "ls":
        return cmdList(store, args, io);
      case "edit":
        return await cmdEdit(store, args, io);
      case "rm":
      case "remove":
        return await cmdRemove(store, args, io);
      case "clear":
        return await cmdClear(store, args, io);
      case "export":
        return await cmdExport(store, args, io);
      case "stats":
        return cmdStats(store, io);
      default:
        throw new UsageError(`Unknown command "${args.command}". Run "todo --help" for usage.`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`todo: ${err.message}`);
      return 2;
    }
    throw err;
  }
}

// Each command gets the opened store, the parsed arguments and the Io, prints
// its result through io.stdout and returns the exit code. Commands that change
// the list save it themselves, after the change succeeded.

async function cmdAdd(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const text = args.positional.join(" ").trim();
  if (!text) throw new UsageError("add needs the text of the todo");
  const todo = store.add(
    text,
    {
      priority: parsePriority(flagString(args.flags, "priority")),
      tags: parseTags(flagString(args.flags, "tag")),
      due: parseDue(flagString(args.flags, "due")),
    },
    io.now(),
  );
  await store.save();
  io.stdout(`Added #${todo.id}: ${todo.text}`);
  return 0;
}

function cmdList(store: TodoStore, args: ParsedArgs, io: Io): number {
  const all = store.list();
  if (all.length === 0) {
    io.stdout('Nothing to do. Add a todo with: todo add "text"');
    return 0;
  }
  const options: ListOptions = {
    tag: flagString(args.flags, "tag"),
    priority: parsePriority(flagString(args.flags, "priority")),
    sort: parseSort(flagString(args.flags, "sort")),
  };
  const todos = store.list(options);
  if (todos.length === 0) {
    io.stdout(`No todos match (${pluralize(all.length, "todo")} in total).`);
    return 0;
  }
  const color = useColor(io.env, io.isTty);
  for (const line of formatList(todos, { color, now: io.now() })) io.stdout(line);
  return 0;
}

async function cmdEdit(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const id = parseId(args.positional[0]);
  const patch: TodoPatch = {};
  const text = args.positional.slice(1).join(" ").trim();
  if (text) patch.text = text;
  const priority = parsePriority(flagString(args.flags, "priority"));
  if (priority) patch.priority = priority;
  const tags = parseTags(flagString(args.flags, "tag"));
  if (tags) patch.tags = tags;
  const due = parseDue(flagString(args.flags, "due"));
  if (due) patch.due = due;
  if (Object.keys(patch).length === 0) throw new UsageError("edit needs new text or a flag to change");
  const todo = store.update(id, patch);
  if (!todo) throw new UsageError(`No todo with id ${id}`);
  await store.save();
  io.stdout(`Updated ${formatTodo(todo, { color: false, now: io.now() })}`);
  return 0;
}

async function cmdRemove(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const id = parseId(args.positional[0]);
  const removed = store.remove(id);
  if (!removed) throw new UsageError(`No todo with id ${id}`);
  await store.save();
  io.stdout(`Removed #${removed.id}: ${removed.text}`);
  return 0;
}

async function cmdClear(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  if (!flagBool(args.flags, "yes")) throw new UsageError("clear deletes every todo; run it with --yes");
  const count = store.clear();
  await store.save();
  io.stdout(`Removed ${pluralize(count, "todo")}.`);
  return 0;
}

async function cmdExport(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const format = parseFormat(flagString(args.flags, "format"));
  const todos = store.list({ tag: flagString(args.flags, "tag") });
  const output = renderExport(format, todos);
  const target = flagString(args.flags, "output");
  if (target) {
    await writeFile(target, output, "utf8");
    io.stdout(`Exported ${pluralize(todos.length, "todo")} to ${target}`);
  } else {
    io.stdout(output.trimEnd());
  }
  return 0;
}

function cmdStats(store: TodoStore, io: Io): number {
  for (const line of formatStats(computeStats(store.list(), io.now()))) io.stdout(line);
  return 0;
}

function parseFormat(value: string | undefined): ExportFormat {
  if (value === undefined) return "csv";
  if ((EXPORT_FORMATS as readonly string[]).includes(value)) return value as ExportFormat;
  throw new UsageError(`Export format must be one of ${EXPORT_FORMATS.join(", ")}`);
}

// ---- argument parsing helpers: they throw UsageError with a message meant for the user ----

function parseId(value: string | undefined): number {
  const id = Number(value);
  if (!value || !Number.isInteger(id) || id < 1) throw new UsageError(`Expected a todo id, got "${value ?? ""}"`);
  return id;
}

function parsePriority(value: string | undefined): Priority | undefined {
  if (value === undefined) return undefined;
  if ((PRIORITIES as readonly string[]).includes(value)) return value as Priority;
  throw new UsageError(`Priority must be one of ${PRIORITIES.join(", ")}`);
}

function parseTags(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(",")
    .map((tag) => tag.trim().replace(/^#/, ""))
    .filter(Boolean);
}

function parseDue(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
    throw new UsageError(`Due date must look like 2024-05-31, got "${value}"`);
  }
  return value;
}

function parseSort(value: string | undefined): SortKey | undefined {
  if (value === undefined) return undefined;
  if (value === "id" || value === "priority" || value === "due") return value;
  throw new UsageError("Sort must be one of id, priority, due");
}
