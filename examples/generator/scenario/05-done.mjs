// Turn 5, on the new branch: `done` as a flag on the todo (plus export, stats
// and completions). The first test run fails five tests (a long output), the
// fixes follow, and the user labels the green result.
import { bash, edit, read } from "../lib/session-recorder.mjs";
import { tail } from "./01-explore.mjs";
import {
  CMD_REMOVE_END,
  CMD_DONE,
  CMD_DONE_CHECKED,
  MARK_DONE,
  REMOVE_END,
  DONE_TEST,
  FORMAT_LIST_BODY,
  FORMAT_LIST_COUNTS,
  CLI_JSON_EXPECTED,
  EXPORT_EDITS,
  STATS_EDITS,
  BASH_COMPLETION_EDITS,
  ZSH_COMPLETION_EDITS,
  EXPORT_TEST_EDITS,
  STATS_TEST_EDIT,
  FIRST_RUN_FAILURES,
} from "./05-done-code.mjs";

export const FLAG_REQUEST =
  "Let's keep everything in the one file after all: make `done` a flag on the todo (`done: true` plus `doneAt`), " +
  "have `list` hide finished todos unless `--all` is given, and include them in `--json` when `--all` is set. " +
  "The archive attempt is still on disk, so revert that first (git checkout, and delete `src/archive.ts`).";

export async function doneFlag(s, ctx) {
  s.thinkingLevel("high", 21000);
  s.user(FLAG_REQUEST, 48000);

  await s.assistant({
    thinking:
      "Back on the branch after the commit; the archive work only exists on disk: src/archive.ts is new, src/cli.ts and src/config.ts are modified. " +
      "The commit from before contains everything else, so checking out those two files and deleting archive.ts restores exactly the committed state. Verify with git status.",
    text: "First, reverting the archive attempt:",
    calls: [
      bash("git checkout -- src/cli.ts src/config.ts && rm -f src/archive.ts && git status --short", (p) => {
        p.checkout("src/cli.ts");
        p.checkout("src/config.ts");
        p.remove("src/archive.ts");
        return { output: p.gitStatusShort(), ms: 35 };
      }),
    ],
  });

  await s.assistant({
    thinking:
      "Clean working tree, back at the commit. Plan for the flag design, file by file:\n\n" +
      "- types.ts: done?: boolean and doneAt?: string on Todo. Optional, so todo files written by 0.3.0 stay valid without a migration and the file version can stay 1.\n" +
      "- store.ts: markDone(id, now); list() hides done todos unless ListOptions.includeDone. Filtering done todos first means tag, priority and sort behave exactly the same with and without --all.\n" +
      "- cli.ts: `done <id>` command, `--all` for list and export, help text, and stats should see all todos so it can count the done ones.\n" +
      "- format.ts: a ✓ marker for done todos in human output, only for done ones so the existing output stays byte-identical (the user asked for that explicitly earlier). formatJson gets done/doneAt.\n" +
      "- export.ts: Markdown renders [x] for done todos; CSV gets done and doneAt columns appended at the end so existing column positions don't move for anyone parsing by index.\n" +
      "- stats.ts: count done todos separately, keep the other numbers about open todos.\n" +
      "- completions: done command, --all for list and export.\n" +
      "- tests: a new test/done.test.ts for the command, plus export/stats additions.\n\n" +
      "cli.ts changed a lot since I first read it (--json, the rename), so read it again, plus types.ts, the methods part of store.ts and format.ts.",
    calls: [read("src/cli.ts"), read("src/types.ts"), read("src/store.ts", { offset: 66, limit: 50 }), read("src/format.ts")],
  });

  await s.assistant({
    thinking:
      "cli.ts now: run() dispatches add, list/ls, edit, rm/remove, clear, export, stats. cmdList reads json once, handles the empty store, builds ListOptions, filters, prints JSON or the human list. " +
      "cmdExport lists with only the tag filter; cmdStats lists everything. store.list() is the single place where filtering happens, which is where done todos should disappear.\n\n" +
      "done and doneAt optional on Todo. In the store, filter done todos at the start of list() unless includeDone, before tag and priority, so those filters and the sort don't need to know about done at all. " +
      "markDone sets both fields and returns the todo, or undefined for an unknown id; what to say to the user is the CLI's job, like update() and remove() already do. " +
      "doneAt as an ISO string like createdAt, from the injected clock so tests stay deterministic.",
    calls: [
      edit("src/types.ts", [["  due?: string;\n}", "  due?: string;\n  /** Set by `todo done`; done todos stay in the file so ids and undo keep working. */\n  done?: boolean;\n  doneAt?: string;\n}"]]),
      edit("src/store.ts", [
        ["  sort?: SortKey;\n}", "  sort?: SortKey;\n  /** Include todos marked done (hidden by default). */\n  includeDone?: boolean;\n}"],
        [REMOVE_END, REMOVE_END + MARK_DONE],
        ["    let todos = [...this.data.todos];", "    let todos = options.includeDone ? [...this.data.todos] : this.data.todos.filter((todo) => !todo.done);"],
      ]),
    ],
  });

  await s.assistant({
    thinking:
      "CLI: list passes includeDone from --all (that covers --json too, since JSON is printed from the same filtered list); export gets --all as well; stats lists everything and decides itself what to count. " +
      "cmdDone: parse the id like rm does, markDone with io.now(), unknown id is a UsageError (exit 2), save, print 'Done #1: text' mirroring 'Added #1' and 'Removed #1'.\n\n" +
      "Formatting: a dimmed ✓ before done todos, nothing for open ones, so every existing expectation on list output still holds. " +
      "Where does the marker go relative to the priority marker? `  1. ✓ ! file taxes` reads fine: state first, then priority. " +
      "formatJson gets done (false when unset, so the schema is stable for jq) and doneAt (null when unset), right after due.",
    calls: [
      edit("src/cli.ts", [
        ["  todo list [--tag name] [--priority p] [--sort id|priority|due] [--json]\n", "  todo list [--tag name] [--priority p] [--sort id|priority|due] [--json] [--all]\n"],
        ["  todo rm <id>\n", "  todo rm <id>\n  todo done <id>\n"],
        ["  todo export [--format csv|md] [--output file] [--tag name]\n", "  todo export [--format csv|md] [--output file] [--tag name] [--all]\n"],
        ["        return await cmdRemove(store, args, io);\n", '        return await cmdRemove(store, args, io);\n      case "done":\n        return await cmdDone(store, args, io);\n'],
        ['    sort: parseSort(flagString(args.flags, "sort")),\n', '    sort: parseSort(flagString(args.flags, "sort")),\n    includeDone: flagBool(args.flags, "all"),\n'],
        [CMD_REMOVE_END, CMD_REMOVE_END + CMD_DONE],
        ['  const todos = store.list({ tag: flagString(args.flags, "tag") });', '  const todos = store.list({ tag: flagString(args.flags, "tag"), includeDone: flagBool(args.flags, "all") });'],
        ["  for (const line of formatStats(computeStats(store.list(), io.now()))) io.stdout(line);", "  for (const line of formatStats(computeStats(store.list({ includeDone: true }), io.now()))) io.stdout(line);"],
      ]),
      edit("src/format.ts", [
        [
          "  const parts = [`${id}. ${priorityMarker(todo.priority, options.color)}${todo.text}`];",
          '  const check = todo.done ? `${paint("✓", "dim", options.color)} ` : "";\n  const parts = [`${id}. ${check}${priorityMarker(todo.priority, options.color)}${todo.text}`];',
        ],
        ["      due: todo.due ?? null,\n", "      due: todo.due ?? null,\n      done: todo.done ?? false,\n      doneAt: todo.doneAt ?? null,\n"],
      ]),
    ],
  });

  await s.assistant({
    thinking:
      "Now export, stats and the completions. export.ts I know from the start: CSV columns are a const tuple, the Markdown line is built in toMarkdown with a hard-coded `- [ ]`. " +
      "I haven't read stats.ts or the completion scripts in full yet (I only touched the list lines of the completions for --json).",
    calls: [read("src/stats.ts"), read("completions/todo.bash"), read("completions/_todo")],
  });

  await s.assistant({
    thinking:
      "stats: an early `continue` for done todos keeps all other counters about open todos; total becomes the open count and done is new. " +
      "The first line gets ' (N done)' only when there are done todos, so today's output is unchanged. formatStats must not say 'No todos.' when everything is done.\n\n" +
      "Completions: bash needs done in the command list and --all for list/export. zsh needs a description for done, --all for list and export, and done takes an id like rm.",
    calls: [
      edit("src/export.ts", EXPORT_EDITS),
      edit("src/stats.ts", STATS_EDITS),
      edit("completions/todo.bash", BASH_COMPLETION_EDITS),
      edit("completions/_todo", ZSH_COMPLETION_EDITS),
    ],
  });

  await s.assistant({
    thinking: "Tests next. I haven't seen the export and stats tests yet; read them before changing expectations.",
    calls: [read("test/export.test.ts"), read("test/stats.test.ts")],
  });

  await s.assistant({
    thinking:
      "Tests. The CSV tests compare whole strings, so they need the two new columns. New tests: Markdown [x] for done, stats counting done separately. " +
      "The command itself gets its own file, same pattern as cli.test.ts: mark done, hidden from list, shown with --all (with a count of done ones in the summary line), JSON with --all, " +
      "completing twice is an error, unknown id is an error.",
    calls: [
      edit("test/export.test.ts", EXPORT_TEST_EDITS),
      edit("test/stats.test.ts", STATS_TEST_EDIT),
      bash(`cat > test/done.test.ts <<'EOF'\n${DONE_TEST}EOF`, (p) => (p.write("test/done.test.ts", DONE_TEST), { output: "", ms: 7 })),
    ],
  });

  await s.assistant({
    thinking: "Run the whole suite: formatJson, the list filter and the export columns all affect existing tests, not just the new file.",
    calls: [
      bash(
        "npm test",
        (p, c) => {
          ctx.checkpoint("05-done-failing");
          const run = ctx.vitest({ npmScript: "test", startedAt: c.now, failures: FIRST_RUN_FAILURES });
          return { output: run.output, exitCode: run.exitCode, ms: 2870 };
        },
        { expectError: true },
      ),
    ],
  });

  await s.assistant({
    thinking:
      "Five failures. Before fixing: the formatJson test now lives in test/format.test.ts after the rename, and I want the exact current expectation line there. " +
      "The cli.test.ts one is my own test from earlier, I know its lines.",
    calls: [read("test/format.test.ts")],
  });

  await s.assistant({
    thinking:
      "Five failures: three real bugs on my side and two old expectations.\n\n" +
      "1. cli.test.ts 'prints the list as JSON with --json' and format.test.ts 'uses a fixed key order...' expect the old JSON shape. " +
      "The new done/doneAt keys are intended: a stable schema is better for jq users than keys that appear only on some items. Update both expectations, keeping done/doneAt right after due. " +
      "I should have updated those together with formatJson, like I did for the CSV tests.\n\n" +
      "2. 'shows done todos with --all' expects the count line '2 todos, 1 done' but formatList still prints only the total. " +
      "I wrote the test with the summary I wanted and forgot to implement it. Add the done count to formatList, only when there are done todos, so the normal output is unchanged.\n\n" +
      "3. 'refuses to complete a todo twice': markDone happily overwrote doneAt and the command returned 0. Completing twice should be a usage error (exit 2) and must not move doneAt. " +
      "Check in cmdDone before marking, so the store stays a plain data API.\n\n" +
      "4. 'includes done and doneAt in --json --all' got []. The only todo is done, and cmdList's first check is `const all = store.list()`, which now hides done todos, " +
      "so the 'empty list' branch printed [] before --all was ever looked at. `all` has to be computed with the same includeDone as the filtered list; " +
      "then 'Nothing to do' still appears without --all when every todo is done, which is right.\n\n" +
      "Everything else passes, including the export and stats changes.",
    text:
      "Five failures: two tests still expect the old JSON shape (the new `done`/`doneAt` keys are intended), the `--all` count line isn't implemented, " +
      "completing a todo twice isn't rejected, and `list --json --all` printed `[]` because the empty-list check ignored `--all`. Fixing all of them:",
    calls: [
      edit("test/cli.test.ts", CLI_JSON_EXPECTED),
      edit("test/format.test.ts", [['tags: ["home"], due: null, createdAt: NOW.toISOString()', 'tags: ["home"], due: null, done: false, doneAt: null, createdAt: NOW.toISOString()']]),
      edit("src/format.ts", [[FORMAT_LIST_BODY, FORMAT_LIST_COUNTS]]),
      edit("src/cli.ts", [
        ["  const all = store.list();\n", '  const all = store.list({ includeDone: flagBool(args.flags, "all") });\n'],
        ["  const id = parseId(args.positional[0]);\n  const todo = store.markDone(id, io.now());\n  if (!todo) throw new UsageError(`No todo with id ${id}`);", CMD_DONE_CHECKED],
      ]),
    ],
  });

  await s.assistant({
    thinking: "Run the suite again; only the summary matters now.",
    calls: [
      bash("npm test 2>&1 | tail -20", (p, c) => ({ output: tail(ctx.vitest({ npmScript: "test", startedAt: c.now }).output, 20), ms: 2540 })),
    ],
  });

  await s.assistant({
    thinking: "All green. Run the verbose reporter once so the new test names are visible, and type-check.",
    calls: [
      bash("npx tsc --noEmit -p . && npx vitest run --reporter=verbose", (p, c) => {
        ctx.checkpoint("05-done-green");
        return { output: ctx.vitest({ startedAt: c.now, verbose: true }).output, ms: 5230 };
      }),
    ],
  });

  const green = await s.assistant({
    thinking:
      "72 tests, all green, tsc clean. Summarise the behaviour rather than the code: what the user will see for done, list, --all, --json, export and stats, " +
      "the exit codes for the error cases, and that the archive attempt is gone from disk.",
    text:
      "All 72 tests pass and `tsc --noEmit` is clean.\n\n" +
      "**How `done` works now**\n" +
      "- `Todo` has optional `done` and `doneAt`, so existing todo files load unchanged.\n" +
      "- `todo done <id>` sets both and saves (one write, same file). Completing a todo twice exits with code 2 (`todo: #1 is already done`) and leaves `doneAt` alone; an unknown id is also exit code 2.\n" +
      "- `todo list` hides done todos; `--all` shows them with a dimmed `✓`, and the count line becomes `2 todos, 1 done`. Output for open todos is byte-for-byte what it was.\n" +
      "- `--json` always has `done` and `doneAt` (`false` / `null` for open todos); `--json --all` includes the finished ones.\n" +
      "- `todo export --all` includes done todos: `- [x]` in Markdown, and CSV has two new columns at the end (`done`, `doneAt`).\n" +
      "- `todo stats` counts done todos separately: `3 todos: 1 high, 2 normal, 0 low (2 done)`.\n" +
      "- bash and zsh completion know `done` and `--all`.\n\n" +
      "**Tests**: new `test/done.test.ts` (6 tests), one more each for Markdown export and stats; the JSON and CSV expectations now include the new fields.\n\n" +
      "The archive attempt is fully reverted: `src/archive.ts` is gone and `src/config.ts` is back to the committed version.",
  });
  s.label(green.id, "tests green");
  return { testsGreen: green.id };
}
