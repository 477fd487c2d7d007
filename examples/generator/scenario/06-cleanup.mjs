// Turn 6: done todos now stay in the file, so the user wants `clear --done`
// and `undone`. Ends with an end-to-end run of the built CLI.
import { bash, edit, read } from "../lib/session-recorder.mjs";
import { tail } from "./01-explore.mjs";

const MARK_DONE_END = `    todo.doneAt = now.toISOString();
    return todo;
  }`;

const STORE_ADDITIONS = `

  /** Reopens a done todo. Returns undefined when there is no such todo. */
  markUndone(id: number): Todo | undefined {
    const todo = this.get(id);
    if (!todo) return undefined;
    delete todo.done;
    delete todo.doneAt;
    return todo;
  }

  /** Removes done todos only and returns how many went. */
  clearDone(): number {
    const before = this.data.todos.length;
    this.data.todos = this.data.todos.filter((todo) => !todo.done);
    return before - this.data.todos.length;
  }`;

const CMD_CLEAR_START = `async function cmdClear(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  if (!flagBool(args.flags, "yes")) throw new UsageError("clear deletes every todo; run it with --yes");`;

const CMD_CLEAR_START_NEW = `async function cmdClear(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  if (flagBool(args.flags, "done")) {
    const count = store.clearDone();
    await store.save();
    io.stdout(\`Removed \${pluralize(count, "done todo")}.\`);
    return 0;
  }
  if (!flagBool(args.flags, "yes")) {
    throw new UsageError("clear deletes every todo; run it with --yes, or with --done to remove only finished ones");
  }`;

const CMD_DONE_END = `  await store.save();
  io.stdout(\`Done #\${todo.id}: \${todo.text}\`);
  return 0;
}`;

const CMD_UNDONE = `

async function cmdUndone(store: TodoStore, args: ParsedArgs, io: Io): Promise<number> {
  const id = parseId(args.positional[0]);
  const existing = store.get(id);
  if (!existing) throw new UsageError(\`No todo with id \${id}\`);
  if (!existing.done) throw new UsageError(\`#\${id} is not done\`);
  store.markUndone(id);
  await store.save();
  io.stdout(\`Reopened #\${id}: \${existing.text}\`);
  return 0;
}`;

const STORE_TESTS = `  it("markUndone removes done and doneAt", async () => {
    const store = await TodoStore.open(file);
    store.add("a", {}, NOW);
    store.markDone(1, NOW);
    const todo = store.markUndone(1);
    expect(todo).not.toHaveProperty("done");
    expect(todo).not.toHaveProperty("doneAt");
    expect(store.list().map((t) => t.text)).toEqual(["a"]);
  });

  it("clearDone removes only done todos", async () => {
    const store = await TodoStore.open(file);
    store.add("a", {}, NOW);
    store.add("b", {}, NOW);
    store.markDone(1, NOW);
    expect(store.clearDone()).toBe(1);
    expect(store.list({ includeDone: true }).map((t) => t.text)).toEqual(["b"]);
  });

`;

const DONE_TESTS_END = `  it("reports unknown ids", async () => {
    expect(await todo("done", "42")).toBe(2);
    expect(io.err).toEqual(["todo: No todo with id 42"]);
  });
`;

const DONE_TESTS_MORE = `
  it("reopens a done todo with undone", async () => {
    await todo("add", "buy milk");
    await todo("done", "1");
    expect(await todo("undone", "1")).toBe(0);
    expect(io.out).toEqual(["Reopened #1: buy milk"]);
    await todo("list", "--json");
    expect(JSON.parse(io.out.join("\\n"))).toMatchObject([{ id: 1, done: false, doneAt: null }]);
  });

  it("refuses to reopen a todo that is not done", async () => {
    await todo("add", "buy milk");
    expect(await todo("undone", "1")).toBe(2);
    expect(io.err).toEqual(["todo: #1 is not done"]);
  });

  it("clear --done removes only done todos", async () => {
    await todo("add", "a");
    await todo("add", "b");
    await todo("add", "c");
    await todo("done", "1");
    await todo("done", "3");
    expect(await todo("clear", "--done")).toBe(0);
    expect(io.out).toEqual(["Removed 2 done todos."]);
    await todo("list", "--all");
    expect(io.out).toEqual(["  2. b", "1 todo"]);
  });
`;

const E2E =
  'npm run build && export TODO_FILE="$(mktemp -d)/todos.json" && node dist/bin.js add "buy milk" --tag errand && node dist/bin.js add "call mum" --priority high && ' +
  'node dist/bin.js add "water plants" --tag home && node dist/bin.js done 1 && node dist/bin.js list --all && node dist/bin.js stats && ' +
  'node dist/bin.js export --all --format md && node dist/bin.js clear --done && node dist/bin.js list --json && cat "$TODO_FILE"';

export async function cleanup(s, ctx) {
  s.user(
    "Nice. Since done todos now stay in the file forever, I need a way to get rid of them: `todo clear --done` should remove only the finished ones. " +
      "And add `todo undone <id>` while you're at it, for when I tick off the wrong one.",
    104000,
  );

  await s.assistant({
    thinking:
      "Two small additions on top of the done flag:\n" +
      "- store: clearDone() that filters out done todos and returns the count; markUndone(id) that deletes done and doneAt (delete rather than setting false, so a reopened todo looks exactly like one that was never done, in the file and in the JSON output).\n" +
      "- cli: `clear --done` as its own branch before the --yes check (it is not destructive for open todos, so no --yes needed), and `undone <id>` mirroring `done`: unknown id and not-done are usage errors.\n\n" +
      "The --yes error message should mention --done; a test asserts the exact message, so find it first. " +
      "store.ts and cli.ts both changed a lot since I last read them in full (markDone, includeDone, cmdDone, the --all fix), so read both again before editing.",
    calls: [read("src/store.ts"), read("src/cli.ts"), bash('grep -rn "clear deletes every todo" src test', (p) => ({ output: `${p.grepRecursive(["src", "test"], /clear deletes every todo/).join("\n")}\n`, ms: 7 }))],
  });

  await s.assistant({
    thinking:
      "The message is asserted in test/cli.test.ts (refuses to clear without --yes) and thrown in cmdClear. " +
      "store.ts: markDone is right after remove; put markUndone and clearDone after it, next to the other mutators.\n\n" +
      "cmdClear with --done: no confirmation needed, it only removes what the user already marked finished. Report the count with pluralize(count, \"done todo\"). " +
      "cmdUndone mirrors cmdDone: parse id, unknown id and not-done are usage errors, then markUndone, save, 'Reopened #id: text'. " +
      "Help text gets `todo undone <id>` and `todo clear --yes | --done`, completions get undone and --done, and the test expectation follows the new message.",
    calls: [
      edit("src/store.ts", [[MARK_DONE_END, MARK_DONE_END + STORE_ADDITIONS]]),
      edit("src/cli.ts", [
        ["  todo done <id>\n  todo clear --yes\n", "  todo done <id>\n  todo undone <id>\n  todo clear --yes | --done\n"],
        ['      case "done":\n        return await cmdDone(store, args, io);\n', '      case "done":\n        return await cmdDone(store, args, io);\n      case "undone":\n        return await cmdUndone(store, args, io);\n'],
        [CMD_DONE_END, CMD_DONE_END + CMD_UNDONE],
        [CMD_CLEAR_START, CMD_CLEAR_START_NEW],
      ]),
      edit("test/cli.test.ts", [['    expect(io.err).toEqual(["todo: clear deletes every todo; run it with --yes"]);', '    expect(io.err).toEqual(["todo: clear deletes every todo; run it with --yes, or with --done to remove only finished ones"]);']]),
      edit("completions/todo.bash", [
        ['  local commands="add list ls edit rm remove done clear export stats"', '  local commands="add list ls edit rm remove done undone clear export stats"'],
        ['    clear) COMPREPLY=($(compgen -W "--yes" -- "$cur")) ;;', '    clear) COMPREPLY=($(compgen -W "--yes --done" -- "$cur")) ;;'],
      ]),
      edit("completions/_todo", [
        ["    'done:mark a todo as done'\n", "    'done:mark a todo as done'\n    'undone:reopen a done todo'\n"],
        ["    rm | remove | done)\n", "    rm | remove | done | undone)\n"],
        ["      _arguments '--yes[really remove every todo]'\n", "      _arguments '--yes[really remove every todo]' '--done[remove only done todos]'\n"],
      ]),
    ],
  });

  await s.assistant({
    thinking:
      "Tests: store level for markUndone/clearDone, CLI level in done.test.ts for undone, its error, and clear --done. " +
      "Read store.test.ts to put the new cases next to the clear test, and done.test.ts to append to the end of its describe block.",
    calls: [read("test/store.test.ts"), read("test/done.test.ts")],
  });

  await s.assistant({
    thinking:
      "store.test.ts: each test opens a fresh store on a temp file and uses NOW. Two tests before 'clear removes everything': markUndone leaves no done/doneAt properties behind, " +
      "and clearDone removes only the done one and returns 1. done.test.ts ends with 'reports unknown ids'; append undone, its error, and clear --done there.",
    calls: [
      edit("test/store.test.ts", [['  it("clear removes everything and reports the count", async () => {', `${STORE_TESTS}  it("clear removes everything and reports the count", async () => {`]]),
      edit("test/done.test.ts", [[DONE_TESTS_END, DONE_TESTS_END + DONE_TESTS_MORE]]),
    ],
  });

  await s.assistant({
    thinking: "Type-check and run everything, verbose so I can see the five new tests by name.",
    calls: [
      bash("npx tsc --noEmit -p . && npx vitest run --reporter=verbose", (p, c) => {
        ctx.checkpoint("06-cleanup");
        return { output: ctx.vitest({ startedAt: c.now, verbose: true }).output, ms: 4720 };
      }),
    ],
  });

  await s.assistant({
    thinking:
      "77 tests green, and the verbose list shows the new store and done tests. One end-to-end pass through the built binary with a throwaway TODO_FILE (mktemp, so the user's own list is never touched) " +
      "to see all the new output together: list --all, stats, the Markdown export, clear --done, and at the end the JSON and the raw file, to check that open todos carry no done fields on disk.",
    text: "All green. A quick end-to-end run of the built CLI against a throwaway todo file:",
    calls: [
      bash(E2E, (p, c) => {
        // Each `node dist/bin.js` call takes a couple of hundred milliseconds.
        const createdAt = (ms) => new Date(c.now.getTime() + ms).toISOString();
        const remaining = [
          { id: 2, text: "call mum", priority: "high", tags: [], due: null, done: false, doneAt: null, createdAt: createdAt(2231) },
          { id: 3, text: "water plants", priority: "normal", tags: ["home"], due: null, done: false, doneAt: null, createdAt: createdAt(2458) },
        ];
        const output = [
          "",
          "> todo-cli@0.3.0 build",
          "> tsc -p tsconfig.build.json",
          "",
          "Added #1: buy milk",
          "Added #2: call mum",
          "Added #3: water plants",
          "Done #1: buy milk",
          "  1. ✓ buy milk  #errand",
          "  2. ! call mum",
          "  3. water plants  #home",
          "3 todos, 1 done",
          "2 todos: 1 high, 1 normal, 0 low (1 done)",
          "Top tags: #home (1)",
          "# Todos",
          "",
          "## #errand",
          "",
          "- [x] buy milk",
          "",
          "## #home",
          "",
          "- [ ] water plants",
          "",
          "## Untagged",
          "",
          "- [ ] call mum (**high**)",
          "Removed 1 done todo.",
          JSON.stringify(remaining, null, 2),
          // The file itself: undone/open todos carry no done fields at all.
          JSON.stringify({ version: 1, nextId: 4, todos: remaining.map(({ due, done, doneAt, ...rest }) => rest) }, null, 2),
        ];
        return { output: `${output.join("\n")}\n`, ms: 3860 };
      }),
    ],
  });

  const done = await s.assistant({
    thinking:
      "The end-to-end output looks right: list --all shows the ✓ and '3 todos, 1 done', stats says '(1 done)', the Markdown export has [x] for the done one, " +
      "clear --done removed exactly one, and the remaining JSON has done: false / doneAt: null. " +
      "One thing worth pointing out: stats skips done todos before counting tags, so #errand is missing from the top tags. That's consistent with the other stats being about open todos, " +
      "but the user might expect otherwise; mention it.",
    text:
      "Both are in, 77 tests pass.\n\n" +
      "- `todo clear --done` removes only finished todos (`Removed 1 done todo.`) and needs no `--yes`, since open todos are never touched. Plain `todo clear` still insists on `--yes`, and its error now mentions `--done`.\n" +
      "- `todo undone <id>` reopens a todo: `done` and `doneAt` are removed from the file, so it looks exactly like a todo that was never done (`done: false, doneAt: null` in `--json`). " +
      "Reopening an open todo or an unknown id exits with code 2.\n" +
      "- Store: `markUndone(id)` and `clearDone()`, with two store tests; three CLI tests in `test/done.test.ts`.\n" +
      "- Completions know `undone` and `clear --done`.\n\n" +
      "In the end-to-end run above you can see `list --all`, `stats` and the Markdown export picking up the done todo, and `clear --done` removing it. " +
      "One detail: `stats` doesn't count tags of done todos (`#errand` is missing from the top tags). I think that's right, top tags are about what's still open, but say if you'd rather count them.",
  });
  return { cleanupDone: done.id };
}
