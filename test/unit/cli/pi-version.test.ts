// `--pi-version` and the automatic choice (shared/spec/cli.md, "Which pi") through
// the real CLI entry (runCli): piVersion in every read command's --json, 1.5's
// context and prepare on pi 1.5.2's own files (values from expected.json), pi
// 1.5's settings rules, and a file that is not a session.

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./run-cli";

const PI15 = resolve("test/fixtures/pi-1.5");
const expected = JSON.parse(readFileSync(join(PI15, "expected.json"), "utf8")) as { files: Record<string, any> };
const OLD = resolve("test/fixtures/pi-mono/before-compaction.jsonl");
const tmp = mkdtempSync(join(tmpdir(), "pi-sessions-cli-piversion-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A PATH whose `pi` is a symlink into a package named `name` (never executed). */
function fakePi(name: string, version: string): string {
  const root = mkdtempSync(join(tmp, "pi-"));
  const pkg = join(root, "lib/node_modules", name);
  mkdirSync(join(pkg, "dist"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify({ name, version, bin: { pi: "dist/cli.js" } }));
  writeFileSync(join(pkg, "dist/cli.js"), "#!/usr/bin/env node\nprocess.exit(99)\n");
  mkdirSync(join(root, "bin"));
  symlinkSync(join(pkg, "dist/cli.js"), join(root, "bin/pi"));
  return join(root, "bin");
}
const noPi = { PATH: join(tmp, "empty-path") };
function agentDir(settings: unknown): string {
  const dir = mkdtempSync(join(tmp, "agent-"));
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
  return dir;
}
const roles = (messages: { role: string }[]) => messages.map((m) => m.role);

describe("which pi", () => {
  it("a session with pi 1.x markers is read as 1.5: context --json as pi 1.5.2 (expected.json roles)", async () => {
    for (const name of ["02-context-edits.jsonl", "04-compaction-1.5.jsonl", "14-overflow-recovery.jsonl"]) {
      const run = await cli(["context", join(PI15, name), "--json"], { env: noPi });
      expect(run.code).toBe(0);
      const out = run.json();
      expect(out.piVersion).toBe("1.5");
      expect(out.leafId).toBe(expected.files[name].leafId);
      expect(roles(out.messages)).toEqual(expected.files[name].convertToLlmRoles);
      expect(out.model).toEqual(expected.files[name].buildSessionContext.model);
    }
  });

  it("a session without markers: 0.73 with no pi on PATH, else the installed pi's version (its package.json, not run)", async () => {
    expect((await cli(["context", OLD, "--json"], { env: noPi })).json().piVersion).toBe("0.73");
    const pi15 = fakePi("@earendil-works/pi-coding-agent", "1.5.2");
    expect((await cli(["context", OLD, "--json"], { env: { PATH: pi15 } })).json().piVersion).toBe("1.5");
    const pi073 = fakePi("@mariozechner/pi-coding-agent", "0.73.1");
    expect((await cli(["context", OLD, "--json"], { env: { PATH: pi073 } })).json().piVersion).toBe("0.73");
    // Markers beat the installed pi.
    expect((await cli(["context", join(PI15, "01-system-messages.jsonl"), "--json"], { env: { PATH: pi073 } })).json().piVersion).toBe("1.5");
  });

  it("--pi-version wins over markers; 0.73 drops system messages and ignores context edits", async () => {
    const run = await cli(["context", join(PI15, "02-context-edits.jsonl"), "--json", "--pi-version", "0.73"], { env: noPi });
    expect(run.code).toBe(0);
    const out = run.json();
    expect(out.piVersion).toBe("0.73");
    expect(roles(out.messages)).not.toContain("system");
    expect(out.messages.length).toBeGreaterThan(expected.files["02-context-edits.jsonl"].convertToLlmRoles.length - 1);
  });

  it("--pi-version with another value: one error line, exit 1", async () => {
    const run = await cli(["context", OLD, "--pi-version", "2.0"], { env: noPi });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("error: --pi-version must be 0.73 or 1.5, got '2.0'\n");
  });

  it("tree, files, list and prepare --json carry piVersion", async () => {
    const file = join(PI15, "06-branch-summary.jsonl");
    for (const args of [["tree", file], ["files", file], ["prepare", file, "--agent-dir", agentDir({})]]) {
      const run = await cli([...args, "--json"], { env: noPi });
      expect(run.code).toBe(0);
      expect(run.json().piVersion).toBe("1.5");
    }
    const dir = mkdtempSync(join(tmp, "list-"));
    writeFileSync(join(dir, "a.jsonl"), readFileSync(file));
    writeFileSync(join(dir, "b.jsonl"), readFileSync(OLD));
    const list = (await cli(["list", dir, "--json", "--agent-dir", agentDir({})], { env: noPi })).json();
    expect(list.piVersion).toBe("0.73");
    const byName = Object.fromEntries(list.sessions.map((s: { path: string; piVersion: string }) => [s.path.split("/").pop(), s.piVersion]));
    expect(byName).toEqual({ "a.jsonl": "1.5", "b.jsonl": "0.73" });
  });
});

describe("prepare with pi 1.5 semantics", () => {
  it("mirrors pi 1.5.2's prepareCompaction at keepRecentTokens 2000 (expected.json)", async () => {
    for (const name of ["07-custom-bash-images.jsonl", "08-oversized-tool-result.jsonl", "10-split-turn-nested.jsonl", "13-cut-at-custom-message.jsonl", "14-overflow-recovery.jsonl"]) {
      const want = expected.files[name].prepareCompaction.keepRecentTokens2000;
      const run = await cli(["prepare", join(PI15, name), "--json", "--keep-recent-tokens", "2000", "--agent-dir", agentDir({})], { env: noPi });
      expect(run.code).toBe(0);
      const out = run.json();
      expect(out).toMatchObject({
        compactable: true,
        firstKeptEntryId: want.firstKeptEntryId,
        isSplitTurn: want.isSplitTurn,
        tokensBefore: want.tokensBefore,
        messagesToSummarize: want.messagesToSummarize,
        turnPrefixMessages: want.turnPrefixMessages,
        readFiles: want.readFiles,
        modifiedFiles: want.modifiedFiles,
      });
      expect(out.serializedHistory).toHaveLength(want.serializedHistoryChars);
      expect(out.serializedTurnPrefix).toHaveLength(want.serializedTurnPrefixChars);
    }
  });

  it("nothing to compact where pi 1.5.2 returns undefined", async () => {
    const run = await cli(["prepare", join(PI15, "01-system-messages.jsonl"), "--json", "--agent-dir", agentDir({})], { env: noPi });
    expect(run.code).toBe(0);
    expect(expected.files["01-system-messages.jsonl"].prepareCompaction.default.compactable).toBe(false);
    expect(run.json()).toMatchObject({ compactable: false, piVersion: "1.5" });
    expect(run.json().reason).toMatch(/Nothing to compact/);
  });

  it("compaction.modelOverrides[\"provider/modelId\"] of the branch's model applies", async () => {
    const name = "01-system-messages.jsonl";
    const model = expected.files[name].buildSessionContext.model;
    const dir = agentDir({ compaction: { modelOverrides: { [`${model.provider}/${model.modelId}`]: { keepRecentTokens: 2000 } } } });
    const out = (await cli(["prepare", join(PI15, name), "--json", "--agent-dir", dir], { env: noPi })).json();
    expect(out.settings.keepRecentTokens).toBe(2000);
    expect(out.firstKeptEntryId).toBe(expected.files[name].prepareCompaction.keepRecentTokens2000.firstKeptEntryId);
  });

  it("an invalid token setting is pi 1.5's error (exit 1, one line); 0.73 warns and uses the default", async () => {
    const dir = agentDir({ compaction: { keepRecentTokens: -5 } });
    const run = await cli(["prepare", join(PI15, "01-system-messages.jsonl"), "--json", "--agent-dir", dir], { env: noPi });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toEqual([
      `error: ${join(dir, "settings.json")}: Invalid compaction.keepRecentTokens setting: -5. Expected a non-negative safe integer.`,
    ]);
    const old = await cli(["prepare", join(PI15, "01-system-messages.jsonl"), "--json", "--agent-dir", dir, "--pi-version", "0.73"], { env: noPi });
    expect(old.code).toBe(0);
    expect(old.json().settings.keepRecentTokens).toBe(-5);
  });
});

describe("a file that is not a session", () => {
  it("one error line first; the line warnings only with --verbose", async () => {
    const readme = resolve("README.md");
    const run = await cli(["compact", readme, "--digest"], { env: noPi });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`error: ${readme}:1: not a pi session file (no session header and no entries)\n`);
    const verbose = await cli(["context", readme, "--verbose"], { env: noPi });
    expect(verbose.code).toBe(1);
    const lines = verbose.stderr.trim().split("\n");
    expect(lines[0]).toBe(`error: ${readme}:1: not a pi session file (no session header and no entries)`);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.slice(1).every((l) => l.startsWith("warning: ") || l.startsWith("…"))).toBe(true);
  });
});

describe("list counts each session's tokens with its pi version", () => {
  it("a pi 1.5 file as pi 1.5.2 (expected.json); a 0.73-era file resumed in pi 1.5 switches on the next list; --pi-version applies to all", async () => {
    const { semanticsFor } = await import("../../../src/core/agent/index.js");
    const { openSessionSync } = await import("../../../src/core/session/open/open-session.js");
    const dir = mkdtempSync(join(tmp, "list-tokens-"));
    const env = { ...noPi, PI_SESSIONS_CACHE_DIR: mkdtempSync(join(tmp, "cache-")) };
    const a = join(dir, "a.jsonl");
    const b = join(dir, "b.jsonl");
    writeFileSync(a, readFileSync(join(PI15, "04-compaction-1.5.jsonl")));
    writeFileSync(b, readFileSync(OLD));
    const list = async (...extra: string[]) => {
      const out = (await cli(["list", dir, "--json", "--agent-dir", agentDir({}), ...extra], { env })).json();
      return Object.fromEntries(out.sessions.map((s: { path: string }) => [s.path, s])) as Record<string, { piVersion: string; contextTokens: number }>;
    };
    const scratch = (version: "0.73" | "1.5", path: string) => semanticsFor(version).contextUsage(openSessionSync(path).pathTo()).tokens;

    let rows = await list();
    expect(rows[a]).toMatchObject({ piVersion: "1.5", contextTokens: expected.files["04-compaction-1.5.jsonl"].estimateProjectedContextTokens });
    expect(rows[b]).toMatchObject({ piVersion: "0.73", contextTokens: scratch("0.73", b) });

    // pi 1.5 resumes b: it appends a system message below the leaf.
    const lines = readFileSync(b, "utf8").trim().split("\n");
    const leaf = (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
    const system = { type: "message", id: "resumed1", parentId: leaf, timestamp: "2026-01-02T00:00:00.000Z", message: { role: "system", content: "You are pi 1.5. ".repeat(50), timestamp: 1 } };
    writeFileSync(b, `${readFileSync(b, "utf8")}${JSON.stringify(system)}\n`);
    expect(scratch("1.5", b)).not.toBe(scratch("0.73", b));
    rows = await list();
    expect(rows[b]).toMatchObject({ piVersion: "1.5", contextTokens: scratch("1.5", b) });

    rows = await list("--pi-version", "0.73");
    expect(rows[a]).toMatchObject({ piVersion: "0.73", contextTokens: scratch("0.73", a) });
    expect(rows[b]).toMatchObject({ piVersion: "0.73", contextTokens: scratch("0.73", b) });
  });
});
