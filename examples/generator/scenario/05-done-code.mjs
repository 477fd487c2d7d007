// The code the agent writes in turn 5 (05-done.mjs) and the failures vitest reports on the first run.

export const CMD_REMOVE_END = `  io.stdout(\`Removed #\${removed.id}: \${removed.text}\`);
  return 0;
}`;

export const CMD_DONE = `

async function cmdDone(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const id = parseId(args.positional[0]);
  const todo = store.markDone(id, io.now());
  if (!todo) throw new UsageError(\`No todo with id \${id}\`);
  await store.save();
  io.stdout(\`Done #\${todo.id}: \${todo.text}\`);
  return 0;
}`;

export const CMD_DONE_CHECKED = `  const id = parseId(args.positional[0]);
  const existing = store.get(id);
  if (!existing) throw new UsageError(\`No todo with id \${id}\`);
  if (existing.done) throw new UsageError(\`#\${id} is already done\`);
  const todo = store.markDone(id, io.now());
  if (!todo) throw new UsageError(\`No todo with id \${id}\`);`;

export const MARK_DONE = `

  /** Marks a todo as done. Returns undefined when there is no such todo. */
  markDone(id: number, now: Date): Todo | undefined {
    const todo = this.get(id);
    if (!todo) return undefined;
    todo.done = true;
    todo.doneAt = now.toISOString();
    return todo;
  }`;

export const REMOVE_END = `    const [removed] = this.data.todos.splice(index, 1);
    return removed;
  }`;

export const DONE_TEST = `import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../src/cli.js";
import { fakeIo, NOW, tempDir, type FakeIo } from "./helpers.js";

describe("todo done", () => {
  let cleanup: () => Promise<void>;
  let io: FakeIo;

  beforeEach(async () => {
    const tmp = await tempDir();
    cleanup = tmp.cleanup;
    io = fakeIo({ TODO_FILE: join(tmp.dir, "todos.json") });
  });

  afterEach(async () => {
    await cleanup();
  });

  async function todo(...argv: string[]): Promise<number> {
    io.out.length = 0;
    io.err.length = 0;
    return run(argv, io);
  }

  it("marks a todo as done", async () => {
    await todo("add", "buy milk");
    expect(await todo("done", "1")).toBe(0);
    expect(io.out).toEqual(["Done #1: buy milk"]);
  });

  it("hides done todos from list", async () => {
    await todo("add", "buy milk");
    await todo("add", "call mum");
    await todo("done", "1");
    await todo("list");
    expect(io.out).toEqual(["  2. call mum", "1 todo"]);
  });

  it("shows done todos with --all", async () => {
    await todo("add", "buy milk");
    await todo("add", "call mum");
    await todo("done", "1");
    await todo("list", "--all");
    expect(io.out).toEqual(["  1. ✓ buy milk", "  2. call mum", "2 todos, 1 done"]);
  });

  it("includes done and doneAt in --json --all", async () => {
    await todo("add", "buy milk");
    await todo("done", "1");
    await todo("list", "--json", "--all");
    expect(JSON.parse(io.out.join("\\n"))).toMatchObject([{ id: 1, done: true, doneAt: NOW.toISOString() }]);
  });

  it("refuses to complete a todo twice", async () => {
    await todo("add", "buy milk");
    await todo("done", "1");
    expect(await todo("done", "1")).toBe(2);
    expect(io.err).toEqual(["todo: #1 is already done"]);
  });

  it("reports unknown ids", async () => {
    expect(await todo("done", "42")).toBe(2);
    expect(io.err).toEqual(["todo: No todo with id 42"]);
  });
});
`;

export const FORMAT_LIST_BODY = `  const lines = todos.map((todo) => formatTodo(todo, options));
  lines.push(paint(pluralize(todos.length, "todo"), "dim", options.color));`;

export const FORMAT_LIST_COUNTS = `  const lines = todos.map((todo) => formatTodo(todo, options));
  const done = todos.filter((todo) => todo.done).length;
  const count = pluralize(todos.length, "todo") + (done > 0 ? \`, \${done} done\` : "");
  lines.push(paint(count, "dim", options.color));`;

export const CLI_JSON_EXPECTED = [
  [
    '      { id: 1, text: "buy milk", priority: "normal", tags: ["errand"], due: null, createdAt: "2024-05-20T09:30:00.000Z" },',
    '      { id: 1, text: "buy milk", priority: "normal", tags: ["errand"], due: null, done: false, doneAt: null, createdAt: "2024-05-20T09:30:00.000Z" },',
  ],
  [
    '      { id: 2, text: "file taxes", priority: "high", tags: [], due: "2024-05-31", createdAt: "2024-05-20T09:30:00.000Z" },',
    '      { id: 2, text: "file taxes", priority: "high", tags: [], due: "2024-05-31", done: false, doneAt: null, createdAt: "2024-05-20T09:30:00.000Z" },',
  ],
];

export const EXPORT_EDITS = [
  ['const CSV_COLUMNS = ["id", "text", "priority", "tags", "due", "createdAt"] as const;', 'const CSV_COLUMNS = ["id", "text", "priority", "tags", "due", "createdAt", "done", "doneAt"] as const;'],
  [
    "    const fields = [String(todo.id), todo.text, todo.priority, todo.tags.join(\" \"), todo.due ?? \"\", todo.createdAt];",
    "    const fields = [\n      String(todo.id),\n      todo.text,\n      todo.priority,\n      todo.tags.join(\" \"),\n      todo.due ?? \"\",\n      todo.createdAt,\n      todo.done ? \"true\" : \"false\",\n      todo.doneAt ?? \"\",\n    ];",
  ],
  ["      lines.push(`- [ ] ${escapeMarkdown(todo.text)}${markdownExtras(todo)}`);", "      lines.push(`- [${todo.done ? \"x\" : \" \"}] ${escapeMarkdown(todo.text)}${markdownExtras(todo)}`);"],
];

export const STATS_EDITS = [
  ["export interface Stats {\n  total: number;", "export interface Stats {\n  /** Open todos; done ones are only counted in `done`. */\n  total: number;\n  done: number;"],
  ["  let dueThisWeek = 0;\n  for (const todo of todos) {\n", "  let dueThisWeek = 0;\n  let done = 0;\n  for (const todo of todos) {\n    if (todo.done) {\n      done++;\n      continue;\n    }\n"],
  ["  return { total: todos.length, byPriority, overdue, dueThisWeek, topTags };", "  return { total: todos.length - done, done, byPriority, overdue, dueThisWeek, topTags };"],
  ['  if (stats.total === 0) return ["No todos."];', '  if (stats.total === 0 && stats.done === 0) return ["No todos."];'],
  [
    "    `${pluralize(stats.total, \"todo\")}: ${stats.byPriority.high} high, ${stats.byPriority.normal} normal, ${stats.byPriority.low} low`,",
    "    `${pluralize(stats.total, \"todo\")}: ${stats.byPriority.high} high, ${stats.byPriority.normal} normal, ${stats.byPriority.low} low` +\n      (stats.done > 0 ? ` (${stats.done} done)` : \"\"),",
  ],
];

export const BASH_COMPLETION_EDITS = [
  ['  local commands="add list ls edit rm remove clear export stats"', '  local commands="add list ls edit rm remove done clear export stats"'],
  ['list | ls) COMPREPLY=($(compgen -W "--tag --priority --sort --json" -- "$cur")) ;;', 'list | ls) COMPREPLY=($(compgen -W "--tag --priority --sort --json --all" -- "$cur")) ;;'],
  ['export) COMPREPLY=($(compgen -W "--format --output --tag" -- "$cur")) ;;', 'export) COMPREPLY=($(compgen -W "--format --output --tag --all" -- "$cur")) ;;'],
];

export const ZSH_COMPLETION_EDITS = [
  ["    'remove:remove a todo'\n", "    'remove:remove a todo'\n    'done:mark a todo as done'\n"],
  ["        '--json[print the list as JSON]'\n      ;;", "        '--json[print the list as JSON]' \\\n        '--all[include done todos]'\n      ;;"],
  ["    rm | remove)\n", "    rm | remove | done)\n"],
  ["        '(-t --tag)'{-t,--tag}'[only this tag]:tag:'\n      ;;\n  esac", "        '(-t --tag)'{-t,--tag}'[only this tag]:tag:' \\\n        '--all[include done todos]'\n      ;;\n  esac"],
];

export const EXPORT_TEST_EDITS = [
  [
    '      "id,text,priority,tags,due,createdAt\\r\\n" +\n        "1,buy milk,normal,home errand,2024-05-21,2024-05-20T09:30:00.000Z\\r\\n" +\n        \'2,"a, b",high,,,2024-05-20T09:30:00.000Z\\r\\n\',',
    '      "id,text,priority,tags,due,createdAt,done,doneAt\\r\\n" +\n        "1,buy milk,normal,home errand,2024-05-21,2024-05-20T09:30:00.000Z,false,\\r\\n" +\n        \'2,"a, b",high,,,2024-05-20T09:30:00.000Z,false,\\r\\n\',',
  ],
  ['    expect(toCsv([])).toBe("id,text,priority,tags,due,createdAt\\r\\n");', '    expect(toCsv([])).toBe("id,text,priority,tags,due,createdAt,done,doneAt\\r\\n");'],
  [
    '  it("escapes Markdown in the text", () => {',
    '  it("checks off done todos", () => {\n    expect(toMarkdown([todo({ done: true, doneAt: NOW.toISOString() })])).toContain("- [x] buy milk");\n  });\n\n  it("escapes Markdown in the text", () => {',
  ],
];

export const STATS_TEST_EDIT = [
  [
    'describe("formatStats", () => {',
    'describe("computeStats with done todos", () => {\n  it("counts done todos separately", () => {\n    const stats = computeStats([todo({ done: true, priority: "high", due: "2024-05-01" }), todo()], NOW);\n    expect(stats).toMatchObject({ total: 1, done: 1, overdue: 0, byPriority: { high: 0, normal: 1, low: 0 } });\n    expect(formatStats(stats)[0]).toBe("1 todo: 0 high, 1 normal, 0 low (1 done)");\n  });\n});\n\ndescribe("formatStats", () => {',
  ],
];

// Messages, diffs and positions as vitest reports them for the project at this point.
export const FIRST_RUN_FAILURES = [
  {
    file: "test/cli.test.ts",
    test: "todo cli > prints the list as JSON with --json",
    error: "AssertionError: expected [ …(2) ] to deeply equal [ …(2) ]",
    diff: [
      "@@ -1,18 +1,22 @@",
      "  [",
      "    {",
      '      "createdAt": "2024-05-20T09:30:00.000Z",',
      '+     "done": false,',
      '+     "doneAt": null,',
      '      "due": null,',
      '      "id": 1,',
      '      "priority": "normal",',
      '      "tags": [',
      '        "errand",',
      "      ],",
      '      "text": "buy milk",',
      "    },",
      "    {",
      '      "createdAt": "2024-05-20T09:30:00.000Z",',
      '+     "done": false,',
      '+     "doneAt": null,',
      '      "due": "2024-05-31",',
      '      "id": 2,',
      '      "priority": "high",',
      '      "tags": [],',
      '      "text": "file taxes",',
    ],
    at: 'expect(JSON.parse(io.out.join("\\n"))).toEqual([',
    caret: "toEqual",
  },
  {
    file: "test/done.test.ts",
    test: "todo done > shows done todos with --all",
    error: "AssertionError: expected [ '  1. ✓ buy milk', …(2) ] to deeply equal [ '  1. ✓ buy milk', …(2) ]",
    diff: ["  [", '    "  1. ✓ buy milk",', '    "  2. call mum",', '-   "2 todos, 1 done",', '+   "2 todos",', "  ]"],
    at: 'expect(io.out).toEqual(["  1. ✓ buy milk", "  2. call mum", "2 todos, 1 done"]);',
    caret: "toEqual",
  },
  {
    file: "test/done.test.ts",
    test: "todo done > includes done and doneAt in --json --all",
    error: "AssertionError: expected [] to match object [ { id: 1, done: true, …(1) } ]",
    diff: ["- [", "-   {", '-     "done": true,', '-     "doneAt": "2024-05-20T09:30:00.000Z",', '-     "id": 1,', "-   },", "- ]", "+ []"],
    at: "toMatchObject(",
    caret: "toMatchObject",
  },
  {
    file: "test/done.test.ts",
    test: "todo done > refuses to complete a todo twice",
    error: "AssertionError: expected +0 to be 2 // Object.is equality",
    diff: ["- 2", "+ 0"],
    at: 'expect(await todo("done", "1")).toBe(2);',
    caret: "toBe",
  },
  {
    file: "test/format.test.ts",
    test: "formatJson > uses a fixed key order and null for a missing due date",
    error: `AssertionError: expected '[\\n  {\\n    "id": 1,\\n    "text": "bu…' to be '[\\n  {\\n    "id": 1,\\n    "text": "bu…' // Object.is equality`,
    diff: ["@@ -5,8 +5,10 @@", '      "priority": "normal",', '      "tags": [', '        "home"', "      ],", '      "due": null,', '+     "done": false,', '+     "doneAt": null,', '      "createdAt": "2024-05-20T09:30:00.000Z"', "    }", "  ]"],
    at: 'expect(formatJson([todo({ tags: ["home"] })])).toBe(',
    caret: "toBe(",
  },
];
