// npm start: the main job on the bundled example session, with no API key.
// Works on a copy in a temp dir: the bundled file is never written.
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const example = [join(root, "examples/todo-cli-session.jsonl"), join(root, "test/fixtures/pi-mono/large-session.jsonl")].find(existsSync);
const work = mkdtempSync(join(tmpdir(), "pi-sessions-demo-"));
const session = join(work, "session.jsonl");
copyFileSync(example, session);
// An empty agent dir: no keys, no settings of the user's are used.
const agentDir = mkdtempSync(join(tmpdir(), "pi-sessions-demo-agent-"));
const env = { ...process.env, PI_CODING_AGENT_DIR: agentDir };

const bold = (t) => (process.stdout.isTTY ? `\x1b[1m${t}\x1b[0m` : t);
const dim = (t) => (process.stdout.isTTY ? `\x1b[2m${t}\x1b[0m` : t);

function step(title, args, { maxLines = 40 } = {}) {
  console.log(`\n${bold(`▶ ${title}`)}`);
  console.log(dim(`  $ pi-sessions ${args.join(" ")}`));
  const run = spawnSync(process.execPath, [join(root, "dist/cli.js"), ...args], { env, encoding: "utf8" });
  const lines = run.stdout.trimEnd().split("\n");
  const shown = lines.slice(0, maxLines);
  console.log(shown.map((l) => `  ${l}`).join("\n"));
  if (lines.length > maxLines) console.log(dim(`  … ${lines.length - maxLines} more lines`));
  if (run.stderr.trim()) console.log(run.stderr.trimEnd().split("\n").map((l) => `  ${l}`).join("\n"));
  if (run.status !== 0) {
    console.error(`\nstep failed with exit code ${run.status}`);
    process.exit(run.status ?? 1);
  }
  return run.stdout;
}

console.log(bold(`pi-sessions demo on ${example.replace(`${root}/`, "")}`));
console.log(dim(`(a copy in ${work}; no API key needed)`));

step("The session tree: branches, labels, compactions, the current leaf", ["tree", session], { maxLines: 30 });
step("What the model sees from the leaf, and its size", ["context", session], { maxLines: 6 });
step("The compaction pi would run (pi's own cut point and file lists)", ["prepare", session]);
step("Files touched on this branch, bash included (R read, W write, E edit, M moved here, D deleted)", ["files", session], { maxLines: 25 });

const hasCompact = spawnSync(process.execPath, [join(root, "dist/cli.js"), "compact", "--help"], { encoding: "utf8" }).status === 0;
if (hasCompact) {
  const before = readFileSync(session);
  step("Compact with the model-free digest (written to the copy, append-only)", ["compact", session, "--digest"], { maxLines: 12 });
  const after = readFileSync(session);
  const appended = after.subarray(before.length).toString("utf8");
  const entry = JSON.parse(appended.trim().split("\n").pop());
  console.log(`\n${bold("▶ The digest summary that was written")} ${dim(`(entry ${entry.id}, ${after.length - before.length} bytes appended; earlier bytes unchanged: ${after.subarray(0, before.length).equals(before)})`)}`);
  console.log(entry.summary.split("\n").slice(0, 45).map((l) => `  ${l}`).join("\n"));
  step("The context after compaction: the summary first, then the kept messages", ["context", session], { maxLines: 6 });
}
console.log(`\n${dim(`done. Try: node dist/cli.js --help, or open ${work} in VS Code with the extension.`)}`);
