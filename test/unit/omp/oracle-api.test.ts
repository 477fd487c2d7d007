// The omp oracle's API end to end: compaction settings read by omp from its
// config.yml files (global and project) and used for thresholds and
// prepareCompaction, which models omp counts with a native tokenizer, branch
// preparation between two leaves, and the loader's answer on a file omp refuses.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { OMP_FIXTURES_DIR } from "../../support/omp/expected-fixtures.js";
import { describeOmp, fastTempDir } from "../../support/omp/oracle.js";

describeOmp("the omp 18.3.4 oracle's API", (oracle) => {
  let dir: string;
  beforeAll(() => {
    dir = fastTempDir("omp-api-");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads compaction settings from omp's config.yml (project over global) and uses them", async () => {
    const agentDir = join(dir, "agent");
    const cwd = join(dir, "project");
    mkdirSync(agentDir, { recursive: true });
    mkdirSync(join(cwd, ".omp"), { recursive: true });
    writeFileSync(join(agentDir, "config.yml"), "compaction:\n  keepRecentTokens: 2000\n  thresholdPercent: 50\nbranchSummary:\n  reserveTokens: 9000\n");
    writeFileSync(join(cwd, ".omp", "config.yml"), "compaction:\n  thresholdPercent: 70\n");
    const settings = await oracle().settings(cwd, agentDir);
    expect(settings.compaction).toMatchObject({ enabled: true, keepRecentTokens: 2000, thresholdPercent: 70 });
    expect(settings.branchSummary).toEqual({ enabled: false, reserveTokens: 9000 });

    const file = join(OMP_FIXTURES_DIR, "omp-simple.jsonl");
    const got = await oracle().answers({ file, settings: [{ config: { cwd, agentDir } }, {}], contextWindows: [128000] });
    expect(got.settings[0]).toMatchObject({ keepRecentTokens: 2000, thresholdPercent: 70 });
    const [configured, defaults] = got.leaves[0]!.thresholds;
    expect(configured!.thresholdTokens).toBe(Math.floor(128000 * 0.7));
    expect(defaults!.thresholdTokens).toBe(108800);
    // keep 2000 makes omp-simple compactable (expected/: firstKept ff44a757, split turn); the defaults do not.
    expect(got.leaves[0]!.preparations[0]).toMatchObject({ firstKeptEntryId: "ff44a757", isSplitTurn: true, tokensBefore: 3737 });
    expect(got.leaves[0]!.preparations[1]).toBeNull();
  });

  it("says which models omp counts with a native tokenizer", async () => {
    const got = await oracle().answers({
      file: join(OMP_FIXTURES_DIR, "omp-simple.jsonl"),
      tokenizerModels: ["anthropic/claude-sonnet-4-5", "openai/gpt-5", "loopback/loopback-coder"],
    });
    const [claude, gpt, custom] = got.tokenizers;
    expect(claude).toMatchObject({ inCatalog: true, native: true });
    expect(claude!.family).toBeTruthy();
    expect(gpt).toMatchObject({ inCatalog: true, native: false, family: null });
    expect(custom).toEqual({ model: "loopback/loopback-coder", inCatalog: false, family: null, native: false });
  });

  it("prepares a branch summary between two leaves as omp's navigateTree would", async () => {
    // In this fixture omp navigated from an abandoned turn back to the main line with a summary.
    const file = join(OMP_FIXTURES_DIR, "omp-soft-compaction-branch-summary.jsonl");
    const first = await oracle().answers({ file });
    if ("error" in first.open) throw new Error(first.open.error);
    const back = await oracle().loadBack(file);
    if ("error" in back) throw new Error(back.error);
    const summary = back.entries.find((e) => e.type === "branch_summary")!;
    const parentIds = new Set(back.entries.map((e) => e.parentId));
    const leafId = first.open.leafId;
    const abandoned = back.entries.find((e) => !parentIds.has(e.id) && e.id !== leafId)!;
    const got = await oracle().answers({ file, branchPairs: [{ oldLeafId: abandoned.id, targetId: summary.parentId! }], branchBudgets: [0, 1] });
    const branch = got.branches[0]!;
    expect(branch.commonAncestorId).toBe(summary.parentId);
    expect(branch.entryIds.at(-1)).toBe(abandoned.id);
    expect(branch.prepared[0]!.messages.length).toBeGreaterThan(0);
    expect(branch.prepared[0]!.totalTokens).toBeGreaterThan(1);
    expect(branch.prepared[1]!.messages).toEqual([]);
    expect(branch.prepared[0]!.serialized).toContain("[User]:");
  });

  it("reports omp's refusal of a file whose first entry is not a session header", async () => {
    const file = join(dir, "broken.jsonl");
    writeFileSync(file, `${JSON.stringify({ type: "message", id: "a1", parentId: null, message: { role: "user", content: "x" } })}\n`);
    const got = await oracle().answers({ file });
    expect(got.load.invalidHeader).toBe(true);
    expect(got.open).toEqual({ error: expect.stringMatching(/the session header is missing or malformed\. The file was not modified\./) });
  });
});
