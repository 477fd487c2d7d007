// Turn 1: the user asks for two features and a plan; the agent explores.
import { bash, read } from "../lib/session-recorder.mjs";

export const SESSION_NAME = "todo-cli: --json and done";

export async function explore(s, ctx) {
  s.modelChange();
  s.thinkingLevel("medium", 150);

  s.user(
    "I want to add two things to this little todo CLI:\n\n" +
      "1. `todo list --json` so I can pipe the list into `jq` from my shell scripts\n" +
      "2. `todo done <id>` to mark a todo as completed\n\n" +
      "Have a look around the code first and tell me how you'd approach both. Don't change anything yet.",
    38000,
  );

  await s.assistant({
    thinking:
      "The user wants a --json flag for `todo list` and a new `done` command, but first an overview and a plan, no changes. " +
      "Both features touch the data model and the output path, so I need to understand how todos are stored, how the list is rendered, and how the CLI is tested. " +
      "Let me start with the tracked files and package.json to see the layout and the toolchain (test runner, build, module system).",
    text: "I'll start with the file list and the package manifest.",
    calls: [
      bash("git ls-files && cat package.json", (p) => ({
        output: `${[...p.head.keys()].sort().join("\n")}\n${p.read("package.json")}`,
        ms: 24,
      })),
    ],
  });

  await s.assistant({
    thinking:
      "ESM TypeScript, vitest, tsc for the build (tsconfig.build.json), bin points at dist/bin.js. Sources: args, bin, cli, config, export, index, stats, store, types, util. " +
      "There are bash and zsh completions and a CHANGELOG, both of which will need updating for new commands and flags.\n\n" +
      "The command dispatch is in cli.ts and persistence in store.ts; types.ts has the Todo shape which `done` will need to extend. Read those three first.",
    calls: [read("src/cli.ts"), read("src/store.ts"), read("src/types.ts")],
  });

  await s.assistant({
    thinking:
      "cmdList builds ListOptions from --tag/--priority/--sort, calls store.list(options) and prints formatList(...) lines. " +
      "It has two special cases: an empty store prints \"Nothing to do...\" and an empty filter result prints \"No todos match\". " +
      "For --json those human messages must not appear: scripts need valid JSON even for an empty list.\n\n" +
      "There is already an `export` command (CSV or Markdown, optionally to a file) and a `stats` command. --json on list is a different thing from export: " +
      "list output is for looking at and piping, export is for files. But I should check how export renders todos so JSON doesn't diverge in naming (createdAt, tags as array vs space-separated).\n\n" +
      "TodoStore keeps { version: 1, nextId, todos } and saves atomically via a .tmp file and rename. nextId is never reused, good for `done` either way.\n\n" +
      "Formatting lives in util.ts. Let me look at it, export.ts and stats.ts, the argument parser and config (where the file lives, colour rules) (is --json going to need anything there?), the README for the documented behaviour, " +
      "and what index.ts exports since the package is also used as a library.",
    calls: [read("src/util.ts"), read("src/export.ts"), read("src/stats.ts"), read("src/args.ts"), read("src/config.ts"), read("README.md"), bash('cd src && grep -n "export" index.ts', (p) => ({ output: `${p.grepLines("src/index.ts", /export/).join("\n")}\n`, ms: 12 }))],
  });

  await s.assistant({
    thinking:
      "util.ts is purely formatting: paint/ANSI, padLeft, pluralize, priorityMarker, relativeDate, formatDue, formatTodo, formatList. " +
      "export.ts: CSV with columns id,text,priority,tags,due,createdAt (tags space-separated in one field, CRLF line ends) and a Markdown task list grouped by first tag where every item is `- [ ]`. " +
      "With a done flag the Markdown export should render `- [x]`; that's an obvious integration point. stats.ts counts by priority and due date; it will need to know about done todos too.\n\n" +
      "args.ts: --flag without a value becomes true unless the flag is in VALUE_FLAGS, so `--json` and `--all` need no parser changes; flagBool reads them. " +
      "The README documents every command in a table and shows the file format; it will need rows for the new flags and command.\n\n" +
      "index.ts re-exports formatList, formatTodo, pluralize and relativeDate from ./util.js, so renaming util.ts later would be internal only as long as index.ts keeps the same exports.\n\n" +
      "Now the tests: how is the CLI tested, and how do the store tests deal with files? helpers.ts probably has a fake Io and a temp dir helper.",
    calls: [read("test/cli.test.ts"), read("test/store.test.ts"), read("test/helpers.ts")],
  });

  await s.assistant({
    thinking:
      "The CLI tests call run(argv, io) with fakeIo, TODO_FILE in a temp dir, NO_COLOR=1 and a fixed NOW of 2024-05-20T09:30:00Z. " +
      "Each test resets io.out/io.err through the local todo() helper. New tests for --json and done can follow exactly that pattern. " +
      "The store tests open a TodoStore on a file in a fresh temp dir per test and pass NOW explicitly to add(), so a markDone(id, now) would be tested the same way.\n\n" +
      "Before proposing anything, check that the suite is green so any failure later is ours.",
    calls: [
      bash("npm test 2>&1 | tail -20", (p, c) => ({
        output: tail(ctx.vitest({ npmScript: "test", startedAt: c.now }).output, 20),
        ms: 2310,
      })),
    ],
  });

  const plan = await s.assistant({
    thinking:
      "All 57 tests pass. Plan:\n\n" +
      "--json: in cmdList, when the flag is set, print JSON of the filtered and sorted todos and return before any human message. " +
      "An empty result should be [] rather than the 'Nothing to do' text. No colours, no count line. " +
      "A formatJson helper next to formatList keeps cli.ts thin and lets me fix the key order (stable output for jq users) and turn a missing due into null. " +
      "Use the same field names as the store and the CSV export (createdAt, due), but keep tags as an array since JSON can.\n\n" +
      "done: two designs. (a) a flag on the todo: done + doneAt in the same file; list hides done items unless --all; --json can include them; " +
      "Markdown export can render [x]; stats can count them. Same ids, undo is trivial, one atomic write. " +
      "(b) an archive file: move completed todos to a second JSON file. Keeps the main file small but needs two writes (not atomic together), " +
      "and edit/rm/undo/export can't see archived items without reading the second file. " +
      "I'd recommend (a) but should present both, the user may have a preference.\n\n" +
      "Both features need the completions and the CHANGELOG updated. Also: util.ts is only formatting now; format.ts would be a clearer name. Mention as optional.",
    text:
      "Here's what I found and how I'd approach it.\n\n" +
      "## How the code is laid out\n\n" +
      "- **`src/cli.ts`**: `run(argv, io)` parses the arguments (`src/args.ts`) and dispatches to `cmdAdd`, `cmdList`, `cmdEdit`, `cmdRemove`, `cmdClear`, `cmdExport` and `cmdStats`. " +
      "All output goes through the injected `Io`, which is what makes the CLI easy to test (`test/helpers.ts` has `fakeIo()` with a fixed clock).\n" +
      "- **`src/store.ts`**: `TodoStore` loads and saves `$TODO_FILE` / `~/.todo.json` (`{ version: 1, nextId, todos }`), writing to a `.tmp` file and renaming it into place. Ids come from `nextId` and are never reused.\n" +
      "- **`src/util.ts`**: all the human-readable formatting (`formatTodo`, `formatList`, `relativeDate`, ANSI colours with `NO_COLOR` / `FORCE_COLOR`).\n" +
      "- **`src/export.ts`** / **`src/stats.ts`**: CSV and Markdown export, and the numbers behind `todo stats`.\n" +
      "- **`src/index.ts`**: the public API for library use; it re-exports the formatters from `./util.js`.\n" +
      "- **`completions/`**: bash and zsh completion, which list every command and flag by hand.\n\n" +
      "The suite is green: 57 tests in 6 files.\n\n" +
      "## 1. `todo list --json`\n\n" +
      "- In `cmdList`, if `--json` is set, print the **filtered and sorted** todos as JSON and return before any of the human messages.\n" +
      "- An empty result prints `[]` instead of \"Nothing to do…\", so `jq` never sees prose.\n" +
      "- No colours and no count line in JSON mode.\n" +
      "- A small `formatJson(todos)` next to `formatList` in `util.ts` with a fixed key order (`id, text, priority, tags, due, createdAt`) and `due: null` when there is none, so the shape is stable for scripts. " +
      "Field names match the store and the CSV export; tags stay an array:\n\n" +
      "  ```json\n  [\n    { \"id\": 2, \"text\": \"file taxes\", \"priority\": \"high\", \"tags\": [], \"due\": \"2024-05-31\", \"createdAt\": \"2024-05-20T09:30:00.000Z\" }\n  ]\n  ```\n" +
      "- `todo export` stays as it is: it's for files (CSV/Markdown), `--json` is for piping the list.\n\n" +
      "## 2. `todo done <id>`\n\n" +
      "Two ways to do it:\n\n" +
      "**(a) A flag on the todo (my recommendation).** Add `done?: boolean` and `doneAt?: string` to `Todo`. `list` hides done todos unless `--all` is given; `--json --all` includes them with the flag; " +
      "the Markdown export can render them as `- [x]` and `stats` can count them. Everything stays in one file with one atomic write, ids don't change, and an `undone` command later would be trivial.\n\n" +
      "**(b) An archive file.** Move completed todos into a separate JSON file next to the todo file. Keeps `~/.todo.json` small, but `done` then needs two writes that aren't atomic together, " +
      "and `edit`/`rm`/`export`/undo can't reach archived items without reading a second file.\n\n" +
      "Either way the completions and the CHANGELOG need the new command and flags.\n\n" +
      "## Optional cleanup\n\n" +
      "`util.ts` only contains formatting now; renaming it to `format.ts` would make it easier to find. It's internal: `index.ts` would keep exporting the same names.\n\n" +
      "Shall I start with `--json`?",
  });

  s.name(SESSION_NAME);
  return { plan: plan.id };
}

export function tail(text, n) {
  const lines = text.endsWith("\n") ? text.slice(0, -1).split("\n") : text.split("\n");
  return `${lines.slice(-n).join("\n")}\n`;
}
