// `list` over both agents: a home folder with pi's and omp's sessions where
// each agent puts them; without --agent-dir both are listed, each row saying
// whose it is and named by that agent's rules; --agent-dir with --agent omp.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { piSessionDirForCwd } from "../../../src/core/discovery/discover";
import { ompSessionDirForCwd } from "../../../src/core/discovery/omp-session-folder";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures";
import { titleSlotLine } from "../../support/omp/title-slot-line";
import { cli } from "./run-cli";

function layout() {
  const base = mkdtempSync(join(tmpdir(), "list-agents-"));
  const home = join(base, "home");
  const proj = join(home, "code", "proj");
  mkdirSync(proj, { recursive: true });
  const piDir = piSessionDirForCwd(proj, join(home, ".pi", "agent"));
  const ompDir = ompSessionDirForCwd(proj, join(home, ".omp", "agent", "sessions"), { home });
  mkdirSync(piDir, { recursive: true });
  mkdirSync(ompDir, { recursive: true });
  const header = (id: string, extra = "") => `{"type":"session","version":3,"id":"${id}","timestamp":"2026-11-20T10:00:00.000Z","cwd":"${proj}"${extra}}`;
  const msg = (id: string, text: string) => `{"type":"message","id":"${id}","parentId":null,"timestamp":"2026-11-20T10:00:01.000Z","message":{"role":"user","content":"${text}","timestamp":1}}`;
  const info = `{"type":"session_info","id":"i1","parentId":"u1","timestamp":"2026-11-20T10:00:02.000Z","name":"pi name"}`;
  const piFile = join(piDir, "a.jsonl");
  writeFileSync(piFile, [header("pi-1"), msg("u1", "pi first"), info].join("\n") + "\n");
  const ompTitled = join(ompDir, "b.jsonl");
  writeFileSync(ompTitled, [titleSlotLine({ title: "omp title", source: "user" }), header("omp-1"), msg("u1", "omp first")].join("\n") + "\n");
  const ompSimple = join(ompDir, "c.jsonl");
  copyFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), ompSimple);
  // A pi file in omp's folder (pi's session_info is invisible to omp), and a subagent file omp does not list.
  const piInOmp = join(ompDir, "d.jsonl");
  writeFileSync(piInOmp, [header("pi-in-omp"), msg("u1", "resumed in omp"), info].join("\n") + "\n");
  mkdirSync(join(ompDir, "c"), { recursive: true });
  copyFileSync(ompSimple, join(ompDir, "c", "sub.jsonl"));
  const env = { HOME: home, PI_SESSIONS_CACHE_DIR: join(base, "cache"), PI_CODING_AGENT_DIR: undefined, PI_CONFIG_DIR: undefined, OMP_PROFILE: undefined, PI_PROFILE: undefined, XDG_DATA_HOME: undefined };
  return { home, proj, piFile, ompTitled, ompSimple, piInOmp, env };
}

describe("list over pi and omp", () => {
  it("without --agent-dir: both agents' folders for the cwd, each row with its agent and its agent's name", async () => {
    const l = layout();
    const run = await cli(["list", l.proj, "--json"], { env: l.env });
    expect(run.code).toBe(0);
    const rows = run.json().sessions as Record<string, unknown>[];
    const byPath = Object.fromEntries(rows.map((r) => [r.path, r]));
    expect(Object.keys(byPath).sort()).toEqual([l.piFile, l.ompTitled, l.ompSimple, l.piInOmp].sort());
    expect(byPath[l.piFile]).toMatchObject({ agent: "pi", name: "pi name", piVersion: "0.73" });
    expect(byPath[l.ompTitled]).toMatchObject({ agent: "omp", name: "omp title" });
    expect(byPath[l.ompSimple]).toMatchObject({ agent: "omp", name: null, firstUserMessage: "Please write the file hello.txt" });
    expect(byPath[l.piInOmp]).toMatchObject({ agent: "omp", name: null });
    expect(byPath[l.ompTitled]).not.toHaveProperty("piVersion");
    const text = await cli(["list", l.proj], { env: l.env });
    expect(text.stdout).toContain("[omp] omp title");
    expect(text.stdout).toContain("[omp] Please write the file hello.txt");
    expect(text.stdout).toContain("pi name");
  });

  it("--all lists omp's /resume glob (no subagent files) beside pi's folders; --agent omp only omp's", async () => {
    const l = layout();
    const all = (await cli(["list", "--all", "--json"], { env: l.env })).json().sessions as { path: string; agent: string }[];
    expect(all.map((r) => r.path).sort()).toEqual([l.piFile, l.ompTitled, l.ompSimple, l.piInOmp].sort());
    const omp = (await cli(["list", "--all", "--json", "--agent", "omp"], { env: l.env })).json().sessions as { path: string; agent: string }[];
    expect(omp.map((r) => r.path).sort()).toEqual([l.ompTitled, l.ompSimple, l.piInOmp].sort());
    expect(new Set(omp.map((r) => r.agent))).toEqual(new Set(["omp"]));
  });

  it("--agent-dir with --agent omp: that dir's sessions, named by omp's folder rules; --agent-dir alone is pi's", async () => {
    const l = layout();
    const ompDir = join(l.home, ".omp", "agent");
    const rows = (await cli(["list", l.proj, "--json", "--agent", "omp", "--agent-dir", ompDir], { env: l.env })).json().sessions as { path: string }[];
    expect(rows.map((r) => r.path).sort()).toEqual([l.ompTitled, l.ompSimple, l.piInOmp].sort());
    const piRows = (await cli(["list", l.proj, "--json", "--agent-dir", join(l.home, ".pi", "agent")], { env: l.env })).json().sessions as { path: string }[];
    expect(piRows.map((r) => r.path)).toEqual([l.piFile]);
    expect(readFileSync(l.ompSimple, "utf8")).toBe(readFileSync(join(OMP_FIXTURES_DIR, "omp-simple.jsonl"), "utf8"));
  });
});

describe("search over pi and omp", () => {
  it("searches omp's sessions beside pi's (the phrase is omp-simple's first request)", async () => {
    const l = layout();
    const run = await cli(["search", '"Please write the file"', "--all", "--json"], { env: l.env });
    expect(run.code).toBe(0);
    const paths = (run.json().sessions as { path: string }[]).map((s) => s.path);
    expect(paths).toContain(l.ompSimple);
    const here = await cli(["search", "omp first", "--json", "--cwd", l.proj], { env: l.env });
    expect((here.json().sessions as { path: string }[]).map((s) => s.path)).toContain(l.ompTitled);
  });
});
