// Sessions omp keeps outside its sessions root (spec §1.4): omp 18.3.4's own
// SessionManager writes sessions into `--session-dir` folders, records each file
// in custom-session-files, and we find exactly those files (not the ones in
// its root, which the /resume glob lists); the terminal breadcrumbs omp's gc
// also reads; XDG_STATE_HOME; and the CLI listing them as omp's.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ompAgentDir, ompSessionsRoot, ompStateDir } from "../../../src/core/agent/omp-18/omp-dirs.js";
import { ompRecordedSessionFiles, ompRecordFolders, ompRecords, ompRecordTarget } from "../../../src/core/discovery/omp-recorded-sessions.js";
import { ompDiscovery } from "../../support/omp/discovery-oracle.js";
import { fastTempDir, ompSkipReason } from "../../support/omp/oracle.js";
import { cli } from "../cli/run-cli.js";

const skip = ompSkipReason();
const suite = skip ? describe.skip : describe;

let base: string;
beforeAll(() => {
  base = fastTempDir("omp-elsewhere-");
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function homeWith(name: string): { home: string; proj: string; other: string; env: Record<string, string> } {
  const home = join(base, name);
  const proj = join(home, "proj");
  const other = join(base, `${name}-other-project`);
  for (const dir of [proj, other]) mkdirSync(dir, { recursive: true });
  return { home, proj, other, env: { HOME: home, TMPDIR: join(base, "tmp") } };
}

suite(`sessions omp records outside its root${skip ? ` (skipped: ${skip})` : ""}`, () => {
  it("--session-dir folders: exactly the files omp wrote there, not those in its own folders", async () => {
    const { home, proj, other, env } = homeWith("h1");
    mkdirSync(env.TMPDIR!, { recursive: true });
    const custom = join(base, "h1-custom");
    const omp = await ompDiscovery(env, {
      create: [
        { cwd: proj, sessionDir: custom, text: "kept in a custom folder" },
        { cwd: other, sessionDir: join(custom, "nested"), text: "another project, another folder" },
        { cwd: proj, text: "in omp's own folder" },
      ],
    });
    const agentDir = ompAgentDir({ env, home });
    expect(join(ompStateDir(agentDir, { env, home }), "custom-session-files")).toBe(omp.customSessionFilesDir);
    expect(join(ompStateDir(agentDir, { env, home }), "terminal-sessions")).toBe(omp.terminalSessionsDir);
    const [inCustom, inNested, inRoot] = omp.created as [string, string, string];
    expect(inRoot.startsWith(ompSessionsRoot(agentDir, { env, home }))).toBe(true);
    expect(await ompRecordedSessionFiles(agentDir, { env, home })).toEqual([inCustom, inNested].sort());
  });

  it("with XDG_STATE_HOME/omp present, omp records there and we read it there", async () => {
    const { home, proj, env } = homeWith("h2");
    const xdg = join(base, "h2-state");
    mkdirSync(join(xdg, "omp"), { recursive: true });
    const withXdg = { ...env, XDG_STATE_HOME: xdg };
    const omp = await ompDiscovery(withXdg, { create: [{ cwd: proj, sessionDir: join(base, "h2-custom"), text: "state under XDG" }] });
    expect(omp.customSessionFilesDir).toBe(join(xdg, "omp", "custom-session-files"));
    expect(await ompRecordedSessionFiles(ompAgentDir({ env: withXdg, home }), { env: withXdg, home })).toEqual(omp.created);
  });

  it("the CLI lists them as omp's: with --all, and for the project their header records", async () => {
    const { home, proj, other, env } = homeWith("h3");
    const omp = await ompDiscovery(env, {
      create: [
        { cwd: proj, sessionDir: join(base, "h3-custom"), text: "custom folder, this project" },
        { cwd: other, sessionDir: join(base, "h3-custom"), text: "custom folder, other project" },
      ],
    });
    const cliEnv = { HOME: home, PI_SESSIONS_CACHE_DIR: join(base, "h3-cache"), PI_CODING_AGENT_DIR: undefined, PI_CONFIG_DIR: undefined, OMP_PROFILE: undefined, PI_PROFILE: undefined, XDG_DATA_HOME: undefined, XDG_STATE_HOME: undefined };
    const all = await cli(["list", "--all", "--json"], { env: cliEnv, cwd: proj });
    const rows = (JSON.parse(all.stdout) as { sessions: { path: string; agent: string; name: string | null }[] }).sessions;
    expect(rows.map((r) => [r.path, r.agent]).sort()).toEqual(omp.created.map((p) => [p, "omp"]).sort());
    const here = await cli(["list", proj, "--json"], { env: cliEnv, cwd: proj });
    expect((JSON.parse(here.stdout) as { sessions: { path: string }[] }).sessions.map((r) => r.path)).toEqual([omp.created[0]]);
  });
});

describe("omp's records read as its gc reads them", () => {
  it("custom-session-files (absolute path, trimmed) and terminal breadcrumbs (cwd, then the path relative to it); missing files and root files left out", async () => {
    const home = join(base, "by-hand");
    const env: Record<string, string> = { HOME: home };
    const agentDir = ompAgentDir({ env, home });
    const state = ompStateDir(agentDir, { env, home });
    const elsewhere = join(base, "by-hand-files");
    mkdirSync(join(elsewhere, "sub"), { recursive: true });
    const a = join(elsewhere, "a.jsonl");
    const b = join(elsewhere, "sub", "b.jsonl");
    const inRoot = join(ompSessionsRoot(agentDir, { env, home }), "-proj", "c.jsonl");
    mkdirSync(join(inRoot, ".."), { recursive: true });
    for (const file of [a, b, inRoot]) writeFileSync(file, "{}\n");
    mkdirSync(join(state, "custom-session-files"), { recursive: true });
    mkdirSync(join(state, "terminal-sessions"), { recursive: true });
    writeFileSync(join(state, "custom-session-files", "1234567"), `  ${a}\n`);
    writeFileSync(join(state, "custom-session-files", "2345678"), join(elsewhere, "gone.jsonl"));
    writeFileSync(join(state, "custom-session-files", "3456789"), inRoot);
    writeFileSync(join(state, "terminal-sessions", "pts-3"), `${elsewhere}\nsub/b.jsonl\nfresh\n`);
    writeFileSync(join(state, "terminal-sessions", "pts-4"), `${elsewhere}\n`);
    expect(await ompRecordedSessionFiles(agentDir, { env, home })).toEqual([a, b]);
    expect(await ompRecordedSessionFiles(join(base, "no-such-agent-dir"), { env, home })).toEqual([]);
  });

  it("record by record (what the extension's watcher reads): each record's file as the whole read gives it, one not written yet too; nothing for a file in the root, an empty record, or a file outside the record folders", async () => {
    const home = join(base, "one-by-one");
    const env: Record<string, string> = { HOME: home };
    const agentDir = ompAgentDir({ env, home });
    const folders = ompRecordFolders(agentDir, { env, home });
    const root = ompSessionsRoot(agentDir, { env, home });
    const elsewhere = join(base, "one-by-one-files");
    mkdirSync(elsewhere, { recursive: true });
    mkdirSync(folders.customSessionFiles, { recursive: true });
    mkdirSync(folders.terminalSessions, { recursive: true });
    const a = join(elsewhere, "a.jsonl");
    writeFileSync(a, "{}\n");
    const pending = join(elsewhere, "not-yet.jsonl");
    writeFileSync(join(folders.customSessionFiles, "aaaaaaa"), a);
    writeFileSync(join(folders.customSessionFiles, "bbbbbbb"), `${pending}\n`);
    writeFileSync(join(folders.customSessionFiles, "ccccccc"), join(root, "-proj", "c.jsonl"));
    writeFileSync(join(folders.customSessionFiles, "ddddddd"), "  \n");
    writeFileSync(join(folders.terminalSessions, "pts-1"), `${elsewhere}\na.jsonl\n`);
    const all = await ompRecords(agentDir, { env, home });
    expect([...all.entries()].sort()).toEqual([
      [join(folders.customSessionFiles, "aaaaaaa"), a],
      [join(folders.customSessionFiles, "bbbbbbb"), pending],
      [join(folders.terminalSessions, "pts-1"), a],
    ]);
    for (const record of ["aaaaaaa", "bbbbbbb", "ccccccc", "ddddddd", "missing"].map((name) => join(folders.customSessionFiles, name))) {
      expect(await ompRecordTarget(record, folders, root)).toBe(all.get(record));
    }
    expect(await ompRecordTarget(join(folders.terminalSessions, "pts-1"), folders, root)).toBe(a);
    expect(await ompRecordTarget(join(elsewhere, "a.jsonl"), folders, root)).toBeUndefined();
    // The whole read lists existing files only: the one not written yet joins when it is.
    expect(await ompRecordedSessionFiles(agentDir, { env, home })).toEqual([a]);
    writeFileSync(pending, "{}\n");
    expect(await ompRecordedSessionFiles(agentDir, { env, home })).toEqual([a, pending].sort());
  });
});
