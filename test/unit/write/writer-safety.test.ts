// Writer safety for both pi versions: no writer creates a leaf whose path to a
// root is not a simple chain (a parentId cycle: pi's getBranch /
// buildSessionContext never return on resume), and no writer appends to a
// file with a leading UTF-8 BOM for a pi 1.5 user (pi 1.5.2 cannot open it).
// Each refusal: exit 3, one clear line, the file byte-identical. The guard is
// in planAppend, which every writer (and future ones: rename, label, fork)
// passes through.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { planAppend, WriteRefusedError } from "../../../src/core/session/append/append.js";
import { ancestorCycle } from "../../../src/core/session/append/ancestry.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { cli } from "../cli/run-cli";
import { removeDir, sha, tempDir } from "./support/sessions.js";

const dir = tempDir("pi-sessions-writer-safety-");
afterAll(() => removeDir(dir));

const T = "2026-11-23T10:00:00.000Z";
const msg = (id: string, parentId: string | null, role: "user" | "assistant", text: string): Record<string, unknown> => ({
  type: "message",
  id,
  parentId,
  timestamp: T,
  message:
    role === "user"
      ? { role, content: [{ type: "text", text }], timestamp: 1 }
      : { role, content: [{ type: "text", text }], api: "openai-completions", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 },
});

/**
 * Main branch r1 → a1 → u2 → a2 (the last line: pi resumes there fine); a side
 * cycle c1 ⇄ c2 hanging nowhere, a compaction cc under c2, a self-parented s1.
 */
function cyclicSession(name: string): string {
  const lines = [
    { type: "session", version: 3, id: "0197a0b0-0000-7000-8000-000000000001", timestamp: T, cwd: dir },
    msg("r1000000", null, "user", "first question"),
    msg("a1000000", "r1000000", "assistant", "first answer"),
    msg("c1000000", "c2000000", "user", "on a cycle"),
    msg("c2000000", "c1000000", "assistant", "also on the cycle"),
    { type: "compaction", id: "cc000000", parentId: "c2000000", timestamp: T, summary: "s", firstKeptEntryId: "c1000000", tokensBefore: 5 },
    msg("s1000000", "s1000000", "assistant", "my own parent"),
    msg("u2000000", "a1000000", "user", "second question"),
    msg("a2000000", "u2000000", "assistant", "second answer"),
  ];
  const path = join(dir, name);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
  return path;
}

describe("ancestorCycle", () => {
  it("finds the cycle above an entry, a self-parent, and nothing on a chain", () => {
    const session = openSessionSync(cyclicSession("find.jsonl"));
    expect(new Set(ancestorCycle(session.index, "c1000000"))).toEqual(new Set(["c1000000", "c2000000"]));
    expect(new Set(ancestorCycle(session.index, "cc000000"))).toEqual(new Set(["c1000000", "c2000000"]));
    expect(ancestorCycle(session.index, "s1000000")).toEqual(["s1000000"]);
    expect(ancestorCycle(session.index, "a2000000")).toBeNull();
  });
});

describe.each(["0.73", "1.5"])("pi %s: every writer refuses a new leaf on a parentId cycle (exit 3, file unchanged)", (piVersion) => {
  const cases: [string, (path: string) => string[]][] = [
    ["navigate --target (cycle)", (p) => ["navigate", p, "--target", "c1000000"]],
    ["navigate --target (self-parent)", (p) => ["navigate", p, "--target", "s1000000"]],
    ["navigate --label on a cycle entry", (p) => ["navigate", p, "--target", "c2000000", "--label", "x"]],
    ["navigate --undo-compaction (its parent is on the cycle)", (p) => ["navigate", p, "--undo-compaction", "--compaction", "cc000000"]],
    ["branch-summary --digest", (p) => ["branch-summary", p, "--target", "c2000000", "--digest", "--agent-dir", dir]],
    ["compact --leaf on the cycle", (p) => ["compact", p, "--leaf", "c2000000", "--digest", "--agent-dir", dir]],
  ];
  it.each(cases)("%s", async (_label, args) => {
    const path = cyclicSession(`cycle-${piVersion}-${Math.random().toString(36).slice(2)}.jsonl`);
    const hash = sha(path);
    const run = await cli([...args(path), "--pi-version", piVersion]);
    expect(run.code, run.stderr).toBe(3);
    const errorLines = run.stderr.split("\n").filter((l) => l.startsWith("error:"));
    expect(errorLines).toHaveLength(1);
    expect(errorLines[0]).toMatch(/its own ancestor \(parentId cycle: .*\).*pi would loop forever/);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(sha(path)).toBe(hash);
  });

  it("writing on the simple chain of the same file still works, and pi reopens it", async () => {
    const path = cyclicSession(`chain-${piVersion}.jsonl`);
    const run = await cli(["navigate", path, "--target", "a1000000", "--pi-version", piVersion, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ written: true, newLeafId: "a1000000", piVersion });
    expect(SessionManager.open(path).getLeafId()).toBe(run.json<{ entry: { id: string } }>().entry.id);
  });

  it("planAppend (the one place future writers — rename, label, fork — go through) refuses too", () => {
    const session = openSessionSync(cyclicSession(`plan-${piVersion}.jsonl`));
    let error: unknown;
    try {
      planAppend(session, [{ type: "label", targetId: "c1000000", label: "x" }], { parentId: "c1000000", piVersion: piVersion as "0.73" | "1.5" });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(WriteRefusedError);
    expect((error as WriteRefusedError).reason).toBe("parent-cycle");
  });
});

describe("a file with a leading UTF-8 BOM", () => {
  function bomSession(name: string): string {
    const path = join(dir, name);
    const text = readFileSync(cyclicSession(`${name}.src`), "utf8");
    writeFileSync(path, "\uFEFF" + text);
    return path;
  }

  it.each([
    ["navigate", (p: string) => ["navigate", p, "--target", "a1000000"]],
    ["compact", (p: string) => ["compact", p, "--digest", "--keep-recent-tokens", "1", "--agent-dir", dir]],
    ["branch-summary", (p: string) => ["branch-summary", p, "--target", "r1000000", "--digest", "--agent-dir", dir]],
    ["navigate --undo-compaction", (p: string) => ["navigate", p, "--undo-compaction", "--leaf", "cc000000", "--compaction", "cc000000"]],
  ])("pi 1.5: %s refuses (exit 3, one line saying why), file unchanged", async (_label, args) => {
    const path = bomSession(`bom15-${_label.replace(/\W/g, "")}.jsonl`);
    const hash = sha(path);
    const run = await cli([...args(path), "--pi-version", "1.5"]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(/^error: refused to write: .*byte order mark.*pi 1\.5 cannot open/m);
    expect(sha(path)).toBe(hash);
  });

  it("pi 0.73 (which reads such a file) still gets the write", async () => {
    const path = bomSession("bom073.jsonl");
    const run = await cli(["navigate", path, "--target", "a1000000", "--pi-version", "0.73", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.json()).toMatchObject({ written: true, piVersion: "0.73" });
  });
});
