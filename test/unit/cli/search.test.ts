// `pi-sessions search` in-process through runCli: scope (--cwd project vs --all),
// JSON shape, text blocks, exit codes.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piSessionDirForCwd } from "../../../src/core/discovery/discover";
import { removeDir, tempDir, writeSession } from "../search/support";
import { cli } from "./run-cli";

const root = tempDir("pi-sessions-cli-search-");
const agentDir = join(root, "agent");
const projectA = join(root, "project-a");
const projectB = join(root, "project-b");
const env = { PI_SESSIONS_CACHE_DIR: join(root, "cache") };
let inA: { path: string; ids: string[] };
let inB: { path: string; ids: string[] };

beforeAll(() => {
  for (const p of [projectA, projectB]) mkdirSync(p, { recursive: true });
  const dirA = piSessionDirForCwd(projectA, agentDir);
  const dirB = piSessionDirForCwd(projectB, agentDir);
  mkdirSync(dirA, { recursive: true });
  mkdirSync(dirB, { recursive: true });
  inA = writeSession(dirA, { id: "aaaa-1111", cwd: projectA, name: "Flaky tests", messages: [{ role: "user", text: "Why is the CI flaky?" }, { role: "assistant", text: "A race in the watcher: it fires twice." }] });
  inB = writeSession(dirB, { id: "bbbb-2222", cwd: projectB, messages: [{ role: "user", text: "the watcher again" }] });
});
afterAll(() => removeDir(root));

const base = ["--agent-dir", agentDir];

describe("search", () => {
  it("--json: the --cwd project's sessions with matching entries, role and snippet", async () => {
    const run = await cli(["search", "watcher", "--cwd", projectA, "--json", ...base], { env });
    expect(run.code).toBe(0);
    expect(run.json()).toEqual({
      query: "watcher",
      total: 1,
      sessions: [
        {
          path: inA.path,
          id: "aaaa-1111",
          cwd: projectA,
          name: "Flaky tests",
          modified: expect.any(String),
          fields: ["messages"],
          matches: [{ entryId: inA.ids[1], role: "assistant", snippet: "A race in the watcher: it fires twice.", line: 3, highlight: [14, 21] }],
        },
      ],
    });
  });

  it("--all searches every folder under <agent-dir>/sessions/", async () => {
    const run = await cli(["search", "watcher", "--all", "--json", ...base], { env });
    expect(run.code).toBe(0);
    expect(run.json<{ sessions: { path: string }[] }>().sessions.map((s) => s.path).sort()).toEqual([inA.path, inB.path].sort());
  });

  it("phrases and regexes; several words all have to match", async () => {
    const phrase = await cli(["search", '"race in the"', "--all", "--json", ...base], { env });
    expect(phrase.json<{ sessions: { id: string }[] }>().sessions.map((s) => s.id)).toEqual(["aaaa-1111"]);
    const regex = await cli(["search", "re:fires\\s+TWICE", "--all", "--json", ...base], { env });
    expect(regex.json<{ sessions: { id: string }[] }>().sessions.map((s) => s.id)).toEqual(["aaaa-1111"]);
    const both = await cli(["search", "watcher", "again", "--all", "--json", ...base], { env });
    expect(both.json<{ sessions: { id: string }[] }>().sessions.map((s) => s.id)).toEqual(["bbbb-2222"]);
  });

  it("text output: one block per session, the matches under it", async () => {
    const run = await cli(["search", "flaky", "--cwd", projectA, ...base], { env });
    expect(run.code).toBe(0);
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^Flaky tests {2}\S+Z {2}\[name\]$/);
    expect(lines[1]).toBe(`  ${inA.path}`);
    expect(lines).toContain(`    session_info ${"n3"}: Flaky tests`);
    expect(lines).toContain(`    user ${inA.ids[0]}: Why is the CI flaky?`);
  });

  it("no match is not an error", async () => {
    const run = await cli(["search", "nothing-like-this", "--all", ...base], { env });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^no sessions match "nothing-like-this"/);
  });

  it("a missing query or an invalid regex exits 1 with one error line", async () => {
    const none = await cli(["search", ...base], { env });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^error: search needs a QUERY/);
    const bad = await cli(["search", "re:(", "--all", ...base], { env });
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
    expect(bad.stderr).toMatch(/^error: invalid query "re:\(": Invalid regular expression/);
  });

  it("a catastrophic re: is stopped and said so: truncated in the JSON, a warning on stderr, exit 0", async () => {
    const slowDir = join(root, "slow-agent");
    const folder = join(slowDir, "sessions", "--slow--");
    mkdirSync(folder, { recursive: true });
    const slow = writeSession(folder, { id: "slow-0001", messages: [{ role: "user", text: `${"a".repeat(34)}!` }] });
    const run = await cli(["search", "re:^(a+)+$", "--all", "--json", "--agent-dir", slowDir], { env });
    expect(run.code).toBe(0);
    expect(run.json()).toMatchObject({ total: 0, truncated: "regex time limit", notSearched: [slow.path], sessions: [] });
    expect(run.stderr).toMatch(/^warning: regex time limit: 1 session\(s\) not searched/);
  }, 30_000);

  it("is listed in the help", async () => {
    const run = await cli(["--help"], { env });
    expect(run.stdout).toMatch(/^ {2}search +Sessions whose name, id, cwd or message text match QUERY/m);
  });
});
