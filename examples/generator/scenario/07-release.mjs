// Turn 7: README, CHANGELOG, version bump (one edit, one sed), the diff for
// review, and the commit. The session ends on the assistant's last answer.
import { bash, edit, read } from "../lib/session-recorder.mjs";

const ROWS = {
  list: "| `todo list` | Show todos. Flags: `--tag`, `--priority`, `--sort id\\|priority\\|due` |",
  listNew: "| `todo list` | Show open todos. Flags: `--tag`, `--priority`, `--sort id\\|priority\\|due`, `--all` (include done ones), `--json` |",
  edit: "| `todo edit <id> [text]` | Change the text or any of the flags above |",
  done: "| `todo done <id>` | Mark a todo as done. It stays in the file and shows up again with `--all` |\n| `todo undone <id>` | Reopen a done todo |",
  clear: "| `todo clear --yes` | Remove every todo |",
  clearDone: "| `todo clear --done` | Remove only the done todos |",
  export: "| `todo export` | Print the list as CSV (default) or Markdown. Flags: `--format csv\\|md`, `--output file`, `--tag` |",
  exportNew: "| `todo export` | Print the list as CSV (default) or Markdown. Flags: `--format csv\\|md`, `--output file`, `--tag`, `--all` |",
};

const JSON_SECTION = `## Scripting with \`--json\`

\`todo list --json\` prints the same todos as \`todo list\` (filters, \`--sort\` and
\`--all\` apply) as a JSON array, without colours or the count line. An empty
result is \`[]\`, never a sentence, so it is always safe to pipe:

\`\`\`sh
todo list --json --tag work | jq -r '.[].text'
todo list --json --all | jq '[.[] | select(.done)] | length'
\`\`\`

Every item has the same keys: \`id\`, \`text\`, \`priority\`, \`tags\`, \`due\`
(\`null\` if unset), \`done\`, \`doneAt\` (\`null\` until the todo is done) and
\`createdAt\`.

## Exporting`;

const MARKERS = "High priority todos are marked with `!`, low priority ones with `·`.";
const MARKERS_NEW = "High priority todos are marked with `!`, low priority ones with `·`, and done\ntodos (with `--all`) with `✓`.";

const CHANGELOG_040 = `## [Unreleased]

## [0.4.0] - 2026-02-17

### Added
- \`todo list --json\` for scripts: the filtered, sorted list as a JSON array
  with a fixed set of keys, and \`[]\` when nothing matches.
- \`todo done <id>\` and \`todo undone <id>\`. Done todos stay in the file
  (\`done\`, \`doneAt\`) and are hidden from \`list\` unless \`--all\` is given.
- \`todo clear --done\` removes only the done todos.
- \`--all\` on \`export\`; the Markdown export checks off done todos and the CSV
  export has \`done\` and \`doneAt\` columns at the end.
- \`todo stats\` shows how many todos are done.
- Completions for the new commands and flags.

### Changed
- \`src/util.ts\` is now \`src/format.ts\` (the public exports are unchanged).
`;

export async function release(s, ctx) {
  s.user("Perfect, that's right. Last bit: update the README and the CHANGELOG for all of this, bump the version to 0.4.0, and show me the diff before you commit.", 87000);

  await s.assistant({
    thinking:
      "README: the commands table, the markers paragraph, and a short section on --json for scripts, since that's the feature aimed at shell scripts and deserves an example with jq. " +
      "CHANGELOG: a 0.4.0 section in Keep a Changelog style plus the compare links at the bottom; Added for the new commands and flags, Changed for the rename (internal, but visible to anyone reading the source). " +
      "Version: package.json and the VERSION constant in cli.ts. Read README and CHANGELOG first so the edits match exactly.",
    calls: [read("README.md"), read("CHANGELOG.md")],
  });

  await s.assistant({
    thinking:
      "README: list row gets --all and --json, new rows for done, undone and clear --done, --all on export, the ✓ marker next to ! and ·, " +
      "and a 'Scripting with --json' section before 'Exporting' listing the keys. " +
      "CHANGELOG: 0.4.0 dated today under Unreleased, and the links: Unreleased compares from v0.4.0 now, plus a 0.4.0 link. " +
      "Version: package.json by edit and the VERSION constant in src/cli.ts with sed; the --version test reads the constant, so nothing else to change.",
    calls: [
      edit("README.md", [
        [ROWS.list, ROWS.listNew],
        [ROWS.edit, `${ROWS.edit}\n${ROWS.done}`],
        [ROWS.clear, `${ROWS.clear}\n${ROWS.clearDone}`],
        [ROWS.export, ROWS.exportNew],
        [MARKERS, MARKERS_NEW],
        ["## Exporting", JSON_SECTION],
      ]),
      edit("CHANGELOG.md", [
        ["## [Unreleased]\n", CHANGELOG_040],
        [
          "[Unreleased]: https://github.com/example/todo-cli/compare/v0.3.0...HEAD\n",
          "[Unreleased]: https://github.com/example/todo-cli/compare/v0.4.0...HEAD\n[0.4.0]: https://github.com/example/todo-cli/compare/v0.3.0...v0.4.0\n",
        ],
      ]),
      edit("package.json", [['  "version": "0.3.0",', '  "version": "0.4.0",']]),
      bash("sed -i 's/VERSION = \"0.3.0\"/VERSION = \"0.4.0\"/' src/cli.ts && grep -n \"VERSION =\" src/cli.ts", (p) => {
        p.sedFirstPerLine("src/cli.ts", 'VERSION = "0.3.0"', 'VERSION = "0.4.0"');
        return { output: `${p.grepLines("src/cli.ts", /VERSION =/).join("\n")}\n`, ms: 9 };
      }),
    ],
  });

  await s.assistant({
    thinking: "Check the built binary reports the new version and that the help text shows every new command and flag.",
    calls: [
      bash("npm run build && node dist/bin.js --version && node dist/bin.js --help", (p) => {
        const cli = p.read("src/cli.ts");
        const version = /VERSION = "([^"]+)"/.exec(cli)[1];
        const help = /export const HELP = `([^`]*)`/.exec(cli)[1];
        return { output: `\n> todo-cli@${JSON.parse(p.read("package.json")).version} build\n> tsc -p tsconfig.build.json\n\n${version}\n${help}\n`, ms: 3350 };
      }),
    ],
  });

  await s.assistant({
    thinking: "The user wants to see the diff before the commit: status for the untracked test file, the stat for the overview, then the full diff.",
    calls: [
      bash("git status --short && git diff --stat && git diff", (p) => {
        ctx.checkpoint("07-release");
        return { output: p.gitStatusShort() + p.gitDiffStat() + p.gitDiff(), ms: 52 };
      }),
    ],
  });

  await s.assistant({
    thinking:
      "The diff matches what we did across the session. Give a per-file summary so the user doesn't have to read every hunk, point out the untracked test file, and propose a commit message.",
    text:
      "Here's the change set (the full diff is above; `test/done.test.ts` is new and not in it):\n\n" +
      "- **`src/types.ts`**: optional `done` / `doneAt` on `Todo`.\n" +
      "- **`src/store.ts`**: `includeDone` in `ListOptions` (done todos are filtered out first, so tag/priority/sort behave the same), `markDone`, `markUndone`, `clearDone`.\n" +
      "- **`src/cli.ts`**: `done`, `undone`, `clear --done`, `--all` on `list` and `export`, `stats` over all todos, help text, `VERSION = \"0.4.0\"`.\n" +
      "- **`src/format.ts`**: `✓` for done todos, `2 todos, 1 done` count line, `done` / `doneAt` in `formatJson`.\n" +
      "- **`src/export.ts`** / **`src/stats.ts`**: `- [x]` and two CSV columns; a separate done count.\n" +
      "- **`completions/`**: `done`, `undone`, `--all`, `clear --done`.\n" +
      "- **`README.md`**: table rows for the new commands and flags, the `✓` marker, and a *Scripting with `--json`* section listing the JSON keys.\n" +
      "- **`CHANGELOG.md`**: 0.4.0 section and compare links. **`package.json`**: 0.4.0.\n" +
      "- **Tests**: new `test/done.test.ts` (untracked until I `git add` it), plus updates in `cli`, `format`, `export`, `stats` and `store` tests.\n\n" +
      "Shall I commit it as \"Add todo done/undone, clear --done and list --all; v0.4.0\"?",
  });

  s.user("Ship it.", 58000);

  const hash = ctx.commitHash();
  await s.assistant({
    thinking: "Commit everything including the new test file, tag the release since the version was bumped, and show the log.",
    calls: [
      bash('git add -A && git commit -q -m "Add todo done/undone, clear --done and list --all; v0.4.0" && git tag v0.4.0 && git log --oneline -4', (p) => {
        p.commit();
        ctx.log.unshift(`${hash} Add todo done/undone, clear --done and list --all; v0.4.0`);
        return { output: `${ctx.log.slice(0, 4).join("\n")}\n`, ms: 160 };
      }),
    ],
  });

  const last = await s.assistant({
    thinking: "Done. Wrap up the session: what changed overall, and the remaining manual steps (push, publish).",
    text:
      `Committed as \`${hash}\` and tagged \`v0.4.0\`. What changed in this session:\n\n` +
      "- `todo list --json`: filtered, sorted JSON with a fixed schema; `[]` when nothing matches.\n" +
      "- `todo done` / `todo undone`, `list --all`, `export --all` and `clear --done`; done todos stay in the same file (`done`, `doneAt`).\n" +
      "- `util.ts` renamed to `format.ts`.\n" +
      "- README, CHANGELOG and completions updated; version 0.4.0; 77 tests passing.\n\n" +
      "The tag isn't pushed yet: `git push && git push --tags` when you're ready, then `npm publish` (it runs from `dist/`, so `npm run build` first).",
  });
  return { last: last.id };
}
