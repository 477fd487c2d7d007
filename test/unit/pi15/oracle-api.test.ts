// The oracle API other suites build on (round trips of our writers, the end-to-end
// pi run): pi 1.5.2's own load-back, the entries its SessionManager writes, its
// random sessions and its CLI, each checked against facts of pi 1.5.2 (spec §1.2, §10).

import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, expect, it } from "vitest";
import { describePi15 } from "../../support/pi15/oracle.js";

const FIXTURES = new URL("../../fixtures/pi-1.5/", import.meta.url).pathname;
const lines = (file: string): Record<string, unknown>[] =>
  readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
const dir = mkdtempSync(join(tmpdir(), "pi15-oracle-api-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describePi15("pi 1.5.2 oracle API", (oracle) => {
  it("loadBack: pi 1.5.2's SessionManager.open on a copy (the file itself untouched)", async () => {
    const file = `${FIXTURES}06-branch-summary.jsonl`;
    const before = readFileSync(file);
    const back = await oracle().loadBack(file);
    const all = lines(file);
    expect(back.header.type).toBe("session");
    expect(back.entries.map((e) => e.id)).toEqual(all.slice(1).map((e) => e.id));
    expect(back.leafId).toBe(all[all.length - 1]!.id);
    expect(back.context.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "branchSummary", "user", "assistant", "toolResult", "assistant"]);
    expect(readFileSync(file).equals(before)).toBe(true);
  });

  it("appendCompaction: the entry pi 1.5.2 writes carries the current system message, timestamped with the entry", async () => {
    const all = lines(`${FIXTURES}01-system-messages.jsonl`);
    const kept = all.find((e) => e.type === "message" && (e.message as { role: string }).role === "assistant")!.id as string;
    const written = await oracle().appendCompaction(all, undefined, { summary: "S", firstKeptEntryId: kept, tokensBefore: 123 });
    const entry = written.entry!;
    expect(entry).toMatchObject({ type: "compaction", firstKeptEntryId: kept, tokensBefore: 123, summary: "S" });
    const system = entry.systemMessage as { role: string; timestamp: number; sections: Record<string, string> };
    expect(system.role).toBe("system");
    expect(system.timestamp).toBe(Date.parse(entry.timestamp as string));
    // 01's later delta deletes the cwd section: the replayed checkpoint has no cwd.
    expect(Object.keys(system.sections)).not.toContain("cwd");
    expect(written.context.messages.slice(0, 2).map((m) => m.role)).toEqual(["system", "compactionSummary"]);

    const none = await oracle().appendCompaction(all, undefined, { summary: "S", firstKeptEntryId: null, tokensBefore: 1 });
    expect(none.entry!.firstKeptEntryId).toBe(none.entry!.id);
    expect(none.context.messages.map((m) => m.role)).toEqual(["system", "compactionSummary"]);
  });

  it("branchWithSummary: fromId is the leaf being left, parentId the target", async () => {
    const all = lines(`${FIXTURES}01-system-messages.jsonl`);
    const leaf = all[all.length - 1]!.id as string;
    const target = all[3]!.id as string;
    const written = await oracle().branchWithSummary(all, undefined, { branchFromId: target, summary: "left", usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 } });
    expect(written.entry).toMatchObject({ type: "branch_summary", parentId: target, fromId: leaf, summary: "left" });
    expect(written.leafId).toBe(written.entry!.id);
  });

  it("appendAs: pi's own refusal surfaces as an error", async () => {
    const all = lines(`${FIXTURES}01-system-messages.jsonl`);
    await expect(oracle().appendAs(all, undefined, "appendContextEdit", ["nope", null])).rejects.toThrow(/Entry nope not found/);
  });

  it("generate: a random session written by pi 1.5.2's SessionManager, reproducible in structure", async () => {
    const a = await oracle().generate(7, join(dir, "a"));
    const b = await oracle().generate(7, join(dir, "b"));
    const types = (file: string) => lines(file).map((e) => `${e.type}${e.type === "message" ? ":" + (e.message as { role: string }).role : ""}`);
    expect(types(a.path)).toEqual(types(b.path));
    expect(a.features).toEqual(b.features);
    expect(lines(a.path)[0]).toMatchObject({ type: "session", version: 3 });
  });

  it("paths: the real pi 1.5.2 CLI runs on Node 22", async () => {
    const { node, cliJs } = oracle().paths;
    const { stdout } = await promisify(execFile)(node, [cliJs, "--version"], { env: { ...process.env, PI_OFFLINE: "1" } });
    expect(stdout.trim()).toContain("1.5.2");
  });
});
