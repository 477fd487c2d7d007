// The pi extension's writer (src/core/pi-hooks, what pi's session_before_compact
// and session_before_tree get) at 3,000 and 30,000 touched files: under the
// budget (pi's reserveTokens, 16,384), folded and said so, every file covered,
// details complete — through real pi-ai over real HTTP to the loopback model.
// pi's preparation is stood in for by ours (equal to pi's: test/unit/differential,
// test/unit/pi15); the real pis run the same code in pi-cli.test.ts.

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { semanticsFor } from "../../../src/core/agent/index.js";
import { compactionForPi, treeSummaryForPi } from "../../../src/core/pi-hooks/index.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { writeManyFilesSession } from "../../support/many-files-session.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { removeDir, tempDir } from "../write/support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
const dir = tempDir("pi-sessions-hooks-bounded-");
beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("## Goal\nGenerate the modules.") });
  agent = await writeLoopbackAgentDir(server);
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(dir);
});

const BUDGET = 16384;
const tokens = (text: string): number => Math.ceil(text.length / 4);

function entriesOf(file: string): SessionEntry[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .slice(1)
    .map((l) => JSON.parse(l) as SessionEntry);
}

function pathTo(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: SessionEntry[] = [];
  for (let e = byId.get(leafId); e; e = e.parentId ? byId.get(e.parentId) : undefined) path.unshift(e);
  return path;
}

function covered(summary: string, files: readonly string[]): string[] {
  const block = summary.slice(summary.lastIndexOf("## Files touched (cumulative)"));
  const rows = block.split("\n").map((r) => r.replace(/^\S+\s+/, ""));
  const folders = rows.filter((r) => / \(\d+ files\)$/.test(r)).map((r) => r.replace(/ \(\d+ files\)$/, ""));
  const named = new Set(rows);
  return files.filter((f) => !named.has(f) && !folders.some((d) => d === "./" || f.startsWith(d)));
}

describe.each([3000, 30000])("the pi extension's writer, %i touched files", (count) => {
  it("session_before_compact: bounded, folded and said so, every file covered, details complete", async () => {
    const s = writeManyFilesSession(dir, count, { cwd: dir });
    const path = pathTo(entriesOf(s.path), s.leafId);
    const settings = { enabled: true, reserveTokens: BUDGET, keepRecentTokens: 200 };
    const plan = semanticsFor("0.73").planCompaction(path, settings);
    if (!plan.compactable) throw new Error(plan.reason);
    const outcome = await compactionForPi({
      piVersion: "0.73",
      agentDir: agent.agentDir,
      branchEntries: path,
      preparation: { firstKeptEntryId: plan.preparation.firstKeptEntryId, tokensBefore: plan.preparation.tokensBefore, settings },
      customInstructions: "-p current",
      cwd: dir,
      contextWindow: 128000,
    });
    expect(outcome.kind, JSON.stringify(outcome).slice(0, 500)).toBe("summary");
    if (outcome.kind !== "summary") return;
    const { summary, details } = outcome.value;
    expect(tokens(summary)).toBeLessThanOrEqual(BUDGET);
    expect(summary).toContain("Folded by folder");
    expect(covered(summary, s.files)).toEqual([]);
    const recorded = new Set((details as { piSessions: { filesTouched: { displayPath: string }[] } }).piSessions.filesTouched.map((f) => f.displayPath));
    expect(s.files.every((f) => recorded.has(f))).toBe(true);
  });

  it("session_before_tree: the abandoned branch's block, bounded, every file covered", async () => {
    const s = writeManyFilesSession(dir, count, { cwd: dir });
    const all = entriesOf(s.path);
    const path = pathTo(all, s.leafId);
    const outcome = await treeSummaryForPi({
      piVersion: "0.73",
      agentDir: agent.agentDir,
      pathEntries: path,
      entries: path,
      cwd: dir,
    });
    expect(outcome.kind).toBe("summary");
    if (outcome.kind !== "summary") return;
    expect(tokens(outcome.value.summary)).toBeLessThanOrEqual(BUDGET);
    expect(outcome.value.summary).toContain("Folded by folder");
    expect(covered(outcome.value.summary, s.files)).toEqual([]);
  });
});
