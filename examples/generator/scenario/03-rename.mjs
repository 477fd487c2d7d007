// Turn 3: the user checks `!git status`, asks for util.ts → format.ts and a
// clean-up of tmp/, and a commit. Every file change here goes through bash.
import { bash } from "../lib/session-recorder.mjs";
import { tail } from "./01-explore.mjs";

export async function rename(s, ctx) {
  await s.userBash("git status --short", (p) => ({ output: p.gitStatusShort(), ms: 18 }), 64000);

  s.user(
    "Looks good. Two small things before `done`: `util.ts` only does formatting now, so rename it to `format.ts` (and its test file too). " +
      "And please clean up the `tmp/` folder from your check. Then commit what we have.",
    41000,
  );

  await s.assistant({
    thinking:
      "Rename src/util.ts to src/format.ts and test/util.test.ts to test/format.test.ts, then fix every import. Find the references first so nothing is missed. " +
      "index.ts must keep exporting the same names so the public API doesn't change, only the path it re-exports from. " +
      "tmp/ holds debug.log and the throwaway todos.json from my end-to-end check; both go, then the directory.",
    calls: [bash('grep -rn "util" src test', (p) => ({ output: `${p.grepRecursive(["src", "test"], /util/).join("\n")}\n`, ms: 9 }))],
  });

  await s.assistant({
    thinking:
      "Four places import it: src/cli.ts, src/index.ts and src/stats.ts use ./util.js, test/util.test.ts uses ../src/util.js. Move the files, then rewrite the import paths with sed.",
    calls: [
      bash("mv src/util.ts src/format.ts && git mv test/util.test.ts test/format.test.ts", (p) => {
        p.rename("src/util.ts", "src/format.ts");
        p.rename("test/util.test.ts", "test/format.test.ts");
        return { output: "", ms: 22 };
      }),
    ],
  });

  await s.assistant({
    thinking:
      "Both files moved. Now the import paths: ./util.js in the three source files, ../src/util.js in the test. " +
      "sed -i with the dots and slashes escaped; a different delimiter for the test path keeps it readable. These two commands touch different files, so they can run together.",
    calls: [
      bash("sed -i 's/\\.\\/util\\.js/.\\/format.js/' src/cli.ts src/index.ts src/stats.ts", (p) => {
        for (const f of ["src/cli.ts", "src/index.ts", "src/stats.ts"]) p.sedFirstPerLine(f, /\.\/util\.js/, "./format.js");
        return { output: "", ms: 6 };
      }),
      bash("sed -i 's#\\.\\./src/util\\.js#../src/format.js#' test/format.test.ts", (p) => {
        p.sedFirstPerLine("test/format.test.ts", /\.\.\/src\/util\.js/, "../src/format.js");
        return { output: "", ms: 5 };
      }),
    ],
  });

  await s.assistant({
    thinking: "Check nothing still points at util, and remove the scratch files from the end-to-end check.",
    calls: [
      bash('grep -rn "util" src test || echo "no references left"', (p) => {
        const hits = p.grepRecursive(["src", "test"], /util/);
        return { output: hits.length > 0 ? `${hits.join("\n")}\n` : "no references left\n", ms: 8 };
      }),
      bash("rm -f tmp/debug.log tmp/todos.json && rmdir tmp", (p) => {
        p.remove("tmp/debug.log");
        p.remove("tmp/todos.json");
        return { output: "", ms: 4 };
      }),
    ],
  });

  await s.assistant({
    thinking: "No references left and tmp/ is gone. Type-check first (a missed import would show up there), then the suite.",
    calls: [
      bash("npx tsc --noEmit -p . && npm test 2>&1 | tail -20", (p, c) => {
        ctx.checkpoint("03-renamed");
        return { output: tail(ctx.vitest({ npmScript: "test", startedAt: c.now }).output, 20), ms: 4650 };
      }),
    ],
  });

  const hash = ctx.commitHash();
  await s.assistant({
    thinking:
      "Type check and tests are green after the rename. Stage everything, look at what is staged (git should pair up both renames, and tmp/ must not be there), " +
      "then commit with a message covering both changes.",
    calls: [
      bash('git add -A && git status --short && git commit -q -m "Add todo list --json; rename util.ts to format.ts" && git log --oneline -3', (p) => {
        const renames = [
          ["src/util.ts", "src/format.ts"],
          ["test/util.test.ts", "test/format.test.ts"],
        ];
        const staged = [
          ...p.gitStatusShort().split("\n").filter((l) => l.startsWith(" M ")).map((l) => ({ key: l.slice(3), line: `M  ${l.slice(3)}` })),
          ...renames.map(([from, to]) => ({ key: to, line: `R  ${from} -> ${to}` })),
        ].sort((a, b) => (a.key < b.key ? -1 : 1));
        p.commit();
        ctx.log.unshift(`${hash} Add todo list --json; rename util.ts to format.ts`);
        return { output: `${staged.map((s) => s.line).join("\n")}\n${ctx.log.slice(0, 3).join("\n")}\n`, ms: 140 };
      }),
    ],
  });

  const committed = await s.assistant({
    thinking: "Committed. git detected both renames. Report back briefly and hand over for `done`.",
    text:
      `Committed as \`${hash}\`.\n\n` +
      "- `src/util.ts` → `src/format.ts` and `test/util.test.ts` → `test/format.test.ts`; the imports in `src/cli.ts`, `src/index.ts`, `src/stats.ts` and the test were updated with `sed`. " +
      "`index.ts` still exports the same names, so library users see no change.\n" +
      "- Removed `tmp/` (`debug.log` and the throwaway `todos.json`).\n" +
      "- `tsc --noEmit` is clean and all 64 tests pass.\n\n" +
      "Ready for `done` when you are.",
  });
  return { committed: committed.id };
}
