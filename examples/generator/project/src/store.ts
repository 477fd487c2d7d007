import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Priority, Todo, TodoFile } from "./types.js";

export type SortKey = "id" | "priority" | "due";

export interface ListOptions {
  tag?: string;
  priority?: Priority;
  sort?: SortKey;
}

export interface NewTodo {
  priority?: Priority;
  tags?: string[];
  due?: string;
}

export type TodoPatch = Partial<Pick<Todo, "text" | "priority" | "tags" | "due">>;

const PRIORITY_RANK: Record<Priority, number> = { high: 0, normal: 1, low: 2 };

/**
 * The todo list in memory, loaded from and saved to one JSON file. Methods
 * change the list in memory only; call save() to write it. Nothing is cached
 * across processes: every CLI invocation opens, changes and saves.
 */
export class TodoStore {
  private data: TodoFile = { version: 1, nextId: 1, todos: [] };

  constructor(readonly file: string) {}

  static async open(file: string): Promise<TodoStore> {
    const store = new TodoStore(file);
    await store.load();
    return store;
  }

  async load(): Promise<void> {
    let raw: string;
    try {
      raw = await readFile(this.file, "utf8");
    } catch (err) {
      if (isNotFound(err)) return;
      throw err;
    }
    const parsed = JSON.parse(raw) as Partial<TodoFile>;
    if (parsed.version !== 1 || !Array.isArray(parsed.todos)) {
      throw new Error(`${this.file} is not a todo file (expected version 1)`);
    }
    this.data = {
      version: 1,
      nextId: parsed.nextId ?? nextIdFor(parsed.todos),
      todos: parsed.todos,
    };
  }

  /** Write to a temp file first so a crash never leaves half a list behind. */
  async save(): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    await writeFile(tmp, `${JSON.stringify(this.data, null, 2)}\n`, "utf8");
    await rename(tmp, this.file);
  }

  /** Adds a todo with the next id. `now` is injected so tests control createdAt. */
  add(text: string, options: NewTodo, now: Date): Todo {
    const todo: Todo = {
      id: this.data.nextId++,
      text,
      priority: options.priority ?? "normal",
      tags: options.tags ?? [],
      createdAt: now.toISOString(),
    };
    if (options.due) todo.due = options.due;
    this.data.todos.push(todo);
    return todo;
  }

  get(id: number): Todo | undefined {
    return this.data.todos.find((todo) => todo.id === id);
  }

  update(id: number, patch: TodoPatch): Todo | undefined {
    const todo = this.get(id);
    if (!todo) return undefined;
    Object.assign(todo, patch);
    return todo;
  }

  remove(id: number): Todo | undefined {
    const index = this.data.todos.findIndex((todo) => todo.id === id);
    if (index === -1) return undefined;
    const [removed] = this.data.todos.splice(index, 1);
    return removed;
  }

  clear(): number {
    const count = this.data.todos.length;
    this.data.todos = [];
    return count;
  }

  /** A filtered, sorted copy: callers may reorder or change the array freely. */
  list(options: ListOptions = {}): Todo[] {
    let todos = [...this.data.todos];
    if (options.tag) {
      const tag = options.tag;
      todos = todos.filter((todo) => todo.tags.includes(tag));
    }
    if (options.priority) {
      const priority = options.priority;
      todos = todos.filter((todo) => todo.priority === priority);
    }
    return todos.sort(comparator(options.sort ?? "id"));
  }
}

function comparator(sort: SortKey): (a: Todo, b: Todo) => number {
  switch (sort) {
    case "priority":
      return (a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] || a.id - b.id;
    case "due":
      // Todos without a due date go last.
      return (a, b) => (a.due ?? "9999").localeCompare(b.due ?? "9999") || a.id - b.id;
    case "id":
      return (a, b) => a.id - b.id;
  }
}

function nextIdFor(todos: Todo[]): number {
  return todos.reduce((max, todo) => Math.max(max, todo.id), 0) + 1;
}

function isNotFound(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: string }).code === "ENOENT";
}
