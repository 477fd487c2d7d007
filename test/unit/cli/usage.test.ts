// `usage`: the same numbers as the Usage view (one core function), per day,
// model, project or session, as text, JSON or CSV; bad flags are one `error:`
// line and exit 1.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { piSessionDirForCwd } from "../../../src/core/discovery/discover";
import { cli } from "./run-cli";

const usage = (cost: number, input: number) => ({ input, output: 5, cacheRead: 7, cacheWrite: 11, totalTokens: input + 23, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } });

/** A session in pi's folder for `cwd`, one answer per [ISO time, cost, input, model]. */
function piSession(agentDir: string, cwd: string, id: string, answers: [string, number, number, string][], name?: string): string {
  const dir = piSessionDirForCwd(cwd, agentDir);
  mkdirSync(dir, { recursive: true });
  const lines: object[] = [{ type: "session", version: 3, id, timestamp: answers[0]![0], cwd }];
  let parent: string | null = null;
  answers.forEach(([at, cost, input, model], k) => {
    lines.push({ type: "message", id: `${id}u${k}`, parentId: parent, timestamp: at, message: { role: "user", content: `question ${k}`, timestamp: Date.parse(at) } });
    lines.push({ type: "message", id: `${id}a${k}`, parentId: `${id}u${k}`, timestamp: at, message: { role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: "anthropic", model, usage: usage(cost, input), stopReason: "stop", timestamp: Date.parse(at) } });
    parent = `${id}a${k}`;
  });
  if (name) lines.push({ type: "session_info", id: `${id}n`, parentId: parent, timestamp: answers[0]![0], name });
  const path = join(dir, `${id}.jsonl`);
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return path;
}

describe("usage", () => {
  const agentDir = mkdtempSync(join(tmpdir(), "agent-"));
  // Local days of the process's zone (the CLI runs in-process here).
  process.env.TZ = "UTC";
  const env = { PI_SESSIONS_CACHE_DIR: mkdtempSync(join(tmpdir(), "cache-")) };
  const betaCwd = mkdtempSync(join(tmpdir(), "beta-"));
  const a = piSession(agentDir, "/work/alpha", "alpha", [["2026-03-01T10:00:00.000Z", 1.5, 100, "opus"], ["2026-03-02T10:00:00.000Z", 0.5, 50, "haiku"]], 'Alpha, "quoted"');
  const b = piSession(agentDir, betaCwd, "beta", [["2026-03-02T23:00:00.000Z", 2, 200, "opus"]]);
  const base = ["usage", "--all", "--agent-dir", agentDir];

  it("--json per day (every day of the period), with totals and the spend by kind", async () => {
    const run = await cli([...base, "--json"], { env });
    expect(run.code).toBe(0);
    const out = run.json();
    expect(out).toMatchObject({ since: null, until: null, by: "day", sessions: 2, totals: { cost: 4, input: 350, output: 15, cacheRead: 21, cacheWrite: 33, tokens: 419 } });
    expect(out.rows.map((r: any) => [r.day, r.cost])).toEqual([["2026-03-01", 1.5], ["2026-03-02", 2.5]]);
    expect(out.byKind.assistant.cost).toBe(4);
    expect(out.byKind.compaction.cost).toBe(0);
  });

  it("--by model / project / session, --since/--until, and a project dir instead of --all", async () => {
    const models = (await cli([...base, "--json", "--by", "model"], { env })).json();
    expect(models.rows.map((r: any) => [r.model, r.cost])).toEqual([["anthropic/opus", 3.5], ["anthropic/haiku", 0.5]]);
    const projects = (await cli([...base, "--json", "--by", "project", "--since", "2026-03-02"], { env })).json();
    expect(projects.rows.map((r: any) => [r.cwd, r.sessions, r.cost])).toEqual([[betaCwd, 1, 2], ["/work/alpha", 1, 0.5]]);
    const sessions = (await cli([...base, "--json", "--by", "session", "--until", "2026-03-01"], { env })).json();
    expect(sessions.rows).toHaveLength(1);
    expect(sessions.rows[0]).toMatchObject({ path: a, title: 'Alpha, "quoted"', cost: 1.5 });
    const one = (await cli(["usage", "--json", "--by", "session", "--agent-dir", agentDir, "--cwd", betaCwd], { env })).json();
    expect(one.rows.map((r: any) => r.path)).toEqual([b]);
  });

  it("--csv: a header and one quoted line per row; text: a table and the totals", async () => {
    const csv = await cli([...base, "--csv", "--by", "session"], { env });
    expect(csv.code).toBe(0);
    const lines = csv.stdout.trim().split("\n");
    expect(lines[0]).toBe("path,id,title,cwd,parentSession,modified,rolledUp,cost,tokens,input,output,cacheRead,cacheWrite");
    expect(lines[1]).toBe(`${b},beta,question 0,${betaCwd},,2026-03-02T23:00:00.000Z,0,2,223,200,5,7,11`);
    expect(lines[2]).toContain(`,"Alpha, ""quoted""",`);
    const text = await cli([...base, "--by", "model"], { env });
    expect(text.stdout).toContain("anthropic/opus");
    expect(text.stdout).toContain("total $4.00");
    expect(text.stdout).toContain("of which compaction $0.00");
  });

  it("bad flags: one error line, exit 1; listed in the help", async () => {
    for (const args of [["--by", "week"], ["--since", "2026-13-01"], ["--since", "yesterday"], ["--json", "--csv"], ["--since", "2026-03-05", "--until", "2026-03-01"]]) {
      const run = await cli([...base, ...args], { env });
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr).toMatch(/^error: .+\n$/);
      expect(run.stdout).toBe("");
    }
    const help = await cli(["--help"], { env });
    expect(help.stdout).toMatch(/\n {2}usage +What sessions cost/);
  });
});
