// `pi-sessions rename`, `label` and `fork`, in-process through runCli: JSON
// shapes, exit codes, pi 0.73.1 re-opening what was written, files unchanged on
// refusal; and the parent-cycle refusal (exit 3) for every writing command.

import { appendFileSync, copyFileSync, existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { piSessionDirForCwd } from "../../../src/core/discovery/discover.js";
import { branchedSession, piContextAt, removeDir, sha, tempDir } from "../write/support/sessions.js";
import { cli } from "./run-cli";

const dir = tempDir("pi-sessions-cli-curate-");
afterAll(() => removeDir(dir));

interface PiReader {
  getSessionName(): string | undefined;
  getLabel(id: string): string | undefined;
  getLeafId(): string | null;
  buildSessionContext(): unknown;
  getHeader(): Record<string, unknown>;
}

const piReopen = (path: string): PiReader => {
  const copy = join(dir, `reopen-${Math.random().toString(36).slice(2)}.jsonl`);
  copyFileSync(path, copy);
  return SessionManager.open(copy) as unknown as PiReader;
};

describe("rename", () => {
  it("--json: written, the entry as in the file, the name; pi shows it", async () => {
    const { path } = branchedSession(dir);
    const run = await cli(["rename", path, "Store split", "--json"]);
    expect(run.code).toBe(0);
    const out = run.json<{ written: boolean; entry: Record<string, unknown>; name: string; previousName: string | null }>();
    expect(out).toMatchObject({ written: true, name: "Store split", previousName: null, entry: { type: "session_info", name: "Store split" } });
    expect(piReopen(path).getSessionName()).toBe("Store split");
    const text = await cli(["rename", path, "Second"]);
    expect(text.stdout).toContain('session named "Second"');
  });

  it("usage errors and an empty name exit 1 with the file unchanged", async () => {
    const { path } = branchedSession(dir);
    const hash = sha(path);
    for (const args of [["rename", path], ["rename", path, "a", "b"], ["rename", path, "  "]]) {
      const run = await cli(args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: /);
    }
    expect(sha(path)).toBe(hash);
  });
});

describe("label", () => {
  it("sets and clears; pi shows the label, then none", async () => {
    const { path, ids } = branchedSession(dir);
    const set = await cli(["label", path, "--target", ids.a1!, "plan", "--json"]);
    expect(set.code).toBe(0);
    expect(set.json()).toMatchObject({ written: true, targetId: ids.a1, label: "plan", entry: { type: "label", targetId: ids.a1, label: "plan" } });
    expect(piReopen(path).getLabel(ids.a1!)).toBe("plan");
    const cleared = await cli(["label", path, "--target", ids.a1!, "--clear", "--json"]);
    expect(cleared.code).toBe(0);
    expect(cleared.json()).toMatchObject({ written: true, label: null, previousLabel: "plan" });
    expect(cleared.json<{ entry: object }>().entry).not.toHaveProperty("label");
    expect(piReopen(path).getLabel(ids.a1!)).toBeUndefined();
  });

  it("needs --target and exactly one of NAME / --clear; unknown target exits 1; file unchanged", async () => {
    const { path, ids } = branchedSession(dir);
    const hash = sha(path);
    for (const args of [
      ["label", path, "x"],
      ["label", path, "--target", ids.a1!],
      ["label", path, "--target", ids.a1!, "x", "--clear"],
      ["label", path, "--target", ids.a1!, " "],
      ["label", path, "--target", "nope0000", "x"],
    ]) {
      const run = await cli(args);
      expect(run.code, args.join(" ")).toBe(1);
      expect(run.stderr).toMatch(/^error: /);
    }
    expect(sha(path)).toBe(hash);
  });
});

describe("fork", () => {
  it("--json: path, id, entries; the file is in pi's folder, pi opens it with the source's context at --at; source byte-identical", async () => {
    const { path, ids } = branchedSession(dir);
    const agentDir = join(dir, "agent");
    const hash = sha(path);
    const run = await cli(["fork", path, "--at", ids.a2b!, "--agent-dir", agentDir, "--json"]);
    expect(run.code).toBe(0);
    const out = run.json<{ written: boolean; path: string; id: string; parentSession: string; entries: number; entryIds: string[]; leafId: string; atId: string }>();
    expect(out).toMatchObject({ written: true, parentSession: path, entries: 6, leafId: ids.a2b, atId: ids.a2b });
    expect(out.entryIds).toEqual([ids.u1, ids.a1, ids.u2, ids.a2, ids.r2, ids.a2b]);
    expect(out.path.startsWith(piSessionDirForCwd("/work/project", agentDir))).toBe(true);
    expect(out.path.endsWith(`_${out.id}.jsonl`)).toBe(true);
    expect(sha(path)).toBe(hash);
    const pi = SessionManager.open(out.path) as unknown as PiReader;
    expect(pi.getHeader()).toMatchObject({ id: out.id, parentSession: path });
    expect(pi.buildSessionContext()).toEqual(piContextAt(path, dir, ids.a2b!));
  });

  it("without --at it clones the current branch; text mode says how to resume it in pi", async () => {
    const { path, ids } = branchedSession(dir);
    const run = await cli(["fork", path, "--agent-dir", join(dir, "agent")]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/new session [0-9a-f-]{36}: .*\.jsonl/);
    expect(run.stdout).toContain(`root → ${ids.s4}; resume it with: pi --session `);
  });

  it("--session-dir and --cwd place the new file and set its cwd; refusals exit 1 with no new file", async () => {
    const { path, ids } = branchedSession(dir);
    const target = join(dir, "fork-here");
    const run = await cli(["fork", path, "--session-dir", target, "--cwd", dir, "--json"]);
    expect(run.code).toBe(0);
    expect(run.json<{ path: string; cwd: string }>()).toMatchObject({ cwd: dir });
    expect(run.json<{ path: string }>().path.startsWith(target)).toBe(true);
    const none = join(dir, "never");
    for (const args of [["fork", path, "--at", ids.u1!, "--session-dir", none], ["fork", path, "--at", "nope0000", "--session-dir", none], ["fork", path, "--cwd", join(dir, "missing"), "--session-dir", none]]) {
      const refused = await cli(args);
      expect(refused.code, args.join(" ")).toBe(1);
      expect(refused.stderr).toMatch(/^error: /);
    }
    expect(existsSync(none)).toBe(false);
  });
});

describe("a leaf on a parent cycle: every writing command refuses (exit 3), the file unchanged", () => {
  const cycle = (): { path: string; ids: Record<string, string> } => {
    const built = branchedSession(dir);
    const t = new Date().toISOString();
    appendFileSync(
      built.path,
      `${JSON.stringify({ type: "custom", customType: "x", id: "cyc00001", parentId: "cyc00002", timestamp: t })}\n` +
        `${JSON.stringify({ type: "custom", customType: "x", id: "cyc00002", parentId: "cyc00001", timestamp: t })}\n`,
    );
    return built;
  };
  const commands: [string, (path: string, ids: Record<string, string>) => string[]][] = [
    ["rename", (path) => ["rename", path, "x"]],
    ["label", (path, ids) => ["label", path, "--target", ids.u1!, "x"]],
    ["fork (clone of the cycle's branch)", (path) => ["fork", path, "--session-dir", join(dir, "cycle-forks")]],
    ["navigate", (path) => ["navigate", path, "--target", "cyc00001"]],
  ];
  it.each(commands)("%s", async (_name, args) => {
    const { path, ids } = cycle();
    const hash = sha(path);
    const run = await cli(args(path, ids));
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error: refused to write: .*parentId cycle/m);
    expect(sha(path)).toBe(hash);
  });

  it("compact --digest on a cycle of messages (enough to compact): refused at the append", async () => {
    const { path } = branchedSession(dir);
    const t = Date.now();
    const text = "lorem ipsum dolor sit amet ".repeat(400);
    const message = (id: string, parentId: string, role: string, at: number) =>
      `${JSON.stringify({ type: "message", id, parentId, timestamp: new Date(at).toISOString(), message: role === "user" ? { role, content: text, timestamp: at } : { role, content: [{ type: "text", text }], provider: "p", model: "m", usage: { input: 9000, output: 10, cacheRead: 0, cacheWrite: 0, totalTokens: 9010 }, stopReason: "stop", timestamp: at } })}\n`;
    appendFileSync(path, message("cyc00001", "cyc00004", "user", t) + message("cyc00002", "cyc00001", "assistant", t + 1) + message("cyc00003", "cyc00002", "user", t + 2) + message("cyc00004", "cyc00003", "assistant", t + 3));
    const hash = sha(path);
    const run = await cli(["compact", path, "--digest", "--keep-recent-tokens", "100", "--agent-dir", dir]);
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/^error: refused to write: .*parentId cycle/m);
    expect(sha(path)).toBe(hash);
  });
});

describe("help", () => {
  it("lists rename, label and fork with their usage", async () => {
    const run = await cli(["help"]);
    for (const name of ["rename", "label", "fork"]) expect(run.stdout).toMatch(new RegExp(`^  ${name} +\\S`, "m"));
    expect((await cli(["fork", "--help"])).stdout).toContain("usage: pi-sessions fork FILE [--at ID]");
    expect((await cli(["label", "--help"])).stdout).toContain("label FILE --target ID (NAME | --clear)");
  });
});
