// Bounded summaries: whatever a branch touched (3,000 and 30,000 files, by the
// write tool and by bash), every summary we write — compaction and branch
// summary, model and digest — stays under pi's reserveTokens (default 16,384
// estimated tokens, the files-touched block included); the block folds by
// folder and says so; every file is covered (named, or its folder named); the
// entry's details keep the full list; the model's <files-touched> list is
// bounded too. Real pi-ai over real HTTP to the loopback model server.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MANIFEST_HEADING } from "../../../src/core/files-touched/index.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { runBranchSummary, runCompaction } from "../../../src/core/write/index.js";
import { PROMPT_FILES_BUDGET_TOKENS } from "../../../src/core/write/files-for-summary.js";
import { writeManyFilesSession, type ManyFilesSession } from "../../support/many-files-session.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { piOpen, removeDir, tempDir } from "./support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
const dir = tempDir("pi-sessions-bounded-");
const sessions = new Map<number, ManyFilesSession>();

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("## Goal\nGenerate the modules.\n\n## Progress\nAll generated.") });
  agent = await writeLoopbackAgentDir(server);
  for (const count of [3000, 30000]) sessions.set(count, writeManyFilesSession(dir, count));
  // Each compaction test writes to its own copy (a second compaction would summarise only what came after the first).
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(dir);
});

const BUDGET = 16384;
const tokens = (text: string): number => Math.ceil(text.length / 4);

/** The rows of the files-touched block (between the fences after its heading). */
function blockRows(summary: string): string[] {
  const at = summary.lastIndexOf(MANIFEST_HEADING);
  expect(at).toBeGreaterThan(0);
  const block = summary.slice(at);
  const open = block.indexOf("```text\n");
  const close = block.indexOf("\n```", open + 8);
  return block.slice(open + 8, close).split("\n");
}

/** Every file is covered: named in a row, or under a folder row `dir/ (N files)`. */
function expectCovered(summary: string, files: readonly string[]): void {
  const rows = blockRows(summary).map((row) => row.replace(/^\S+\s+/, ""));
  const named = new Set(rows.filter((r) => !/\/ \(\d+ files\)$/.test(r)));
  const folders = rows.filter((r) => /\/ \(\d+ files\)$/.test(r)).map((r) => r.replace(/ \(\d+ files\)$/, ""));
  const uncovered = files.filter((f) => !named.has(f) && !folders.some((d) => d === "./" || f.startsWith(d)));
  expect(uncovered.slice(0, 5)).toEqual([]);
}

function detailsFiles(details: unknown): string[] {
  const piSessions = (details as { piSessions: { filesTouched: { displayPath: string }[]; folded?: boolean } }).piSessions;
  return piSessions.filesTouched.map((f) => f.displayPath);
}

describe.each([3000, 30000])("%i touched files", (count) => {
  const session = () => sessions.get(count)!;

  it.each(["digest", "model"] as const)("compaction (%s): under the budget, folded and said so, every file covered, details complete", async (kind) => {
    const s = writeManyFilesSession(tempDir("pi-sessions-bounded-"), count);
    const start = server.requests.length;
    const result = await runCompaction({
      session: openSessionSync(s.path),
      agentDir: agent.agentDir,
      summarizer: kind === "digest" ? { digest: true } : { model: "loopback-openai/summarizer" },
      settings: { enabled: true, reserveTokens: BUDGET, keepRecentTokens: 200 },
      leafId: s.leafId,
      maxRetries: 0,
      timeoutMs: 60_000,
    });
    expect(result.written).toBe(true);
    const summary = result.entry!.summary;
    expect(tokens(summary)).toBeLessThanOrEqual(BUDGET);
    expect(summary).toContain("Folded by folder");
    expectCovered(summary, s.files);
    const all = new Set(detailsFiles(result.entry!.details));
    expect(s.files.every((f) => all.has(f))).toBe(true);
    expect(s.files.length).toBe(count);
    expect((result.entry!.details as { modifiedFiles: string[] }).modifiedFiles.length).toBeGreaterThanOrEqual(count / 2);
    if (kind === "model") {
      // History and split-turn prefix calls: each list bounded, the history's folded.
      const blocks = server.requests.slice(start).map((r) => r.promptText.slice(r.promptText.indexOf("<files-touched>")));
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) expect(tokens(block)).toBeLessThanOrEqual(PROMPT_FILES_BUDGET_TOKENS + 200);
      expect(blocks.some((block) => block.includes("Too many files to list one by one"))).toBe(true);
    }
    // pi reads it back with the summary first.
    const view = piOpen(s.path, dir);
    expect((view.context.messages[0] as { role: string }).role).toBe("compactionSummary");
  });

  it.each(["digest", "model"] as const)("branch summary (%s): under the budget, folded, every file covered, details complete", async (kind) => {
    const s = session();
    const result = await runBranchSummary({
      session: openSessionSync(s.path),
      agentDir: agent.agentDir,
      summarizer: kind === "digest" ? { digest: true } : { model: "loopback-openai/summarizer" },
      settings: { reserveTokens: BUDGET, skipPrompt: false },
      leafId: s.leafId,
      targetId: "00000001",
      dryRun: true,
      maxRetries: 0,
      timeoutMs: 60_000,
    });
    const summary = result.entry!.summary;
    expect(tokens(summary)).toBeLessThanOrEqual(BUDGET);
    expect(summary).toContain("Folded by folder");
    expectCovered(summary, s.files);
    const all = new Set(detailsFiles(result.entry!.details));
    expect(s.files.every((f) => all.has(f))).toBe(true);
  });
});

it("a small session is not folded: every file named, no fold notice", async () => {
  const s = writeManyFilesSession(dir, 40);
  const result = await runCompaction({
    session: openSessionSync(s.path),
    agentDir: agent.agentDir,
    summarizer: { digest: true },
    settings: { enabled: true, reserveTokens: BUDGET, keepRecentTokens: 50 },
    leafId: s.leafId,
    dryRun: true,
  });
  const summary = result.entry!.summary;
  expect(summary).not.toContain("Folded by folder");
  const rows = new Set(blockRows(summary).map((r) => r.replace(/^\S+\s+/, "")));
  expect(s.files.every((f) => rows.has(f))).toBe(true);
  expect((result.entry!.details as { piSessions: { folded?: boolean } }).piSessions.folded).toBeUndefined();
});

it("a compaction that would leave the context over pi's threshold says so (the session model's window from the registry)", async () => {
  // small-output: a 32,000-token window; keeping 40,000 tokens of recent messages cannot get under 32,000 − 16,384.
  const s = writeManyFilesSession(tempDir("pi-sessions-bounded-"), 3000, { model: "small-output" });
  const result = await runCompaction({
    session: openSessionSync(s.path),
    agentDir: agent.agentDir,
    summarizer: { digest: true },
    settings: { enabled: true, reserveTokens: BUDGET, keepRecentTokens: 40_000 },
    leafId: s.leafId,
    dryRun: true,
  });
  expect(result.tokensAfter!).toBeGreaterThan(32_000 - BUDGET);
  expect(result.warnings.join("\n")).toContain("still above pi's compaction threshold (32000 − 16384 = 15616)");
  const fits = await runCompaction({
    session: openSessionSync(s.path),
    agentDir: agent.agentDir,
    summarizer: { digest: true },
    settings: { enabled: true, reserveTokens: BUDGET, keepRecentTokens: 200 },
    leafId: s.leafId,
    dryRun: true,
  });
  expect(fits.warnings.join("\n")).not.toContain("threshold");
});
