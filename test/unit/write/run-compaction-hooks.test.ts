// runCompaction's extension points: before/after_compact hooks (pi's rules),
// the confirm step (preview and edit), custom prompt files and trust, progress.

import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SUMMARIZATION_PROMPT } from "../../../src/core/compaction/index.js";
import { SummaryHooks } from "../../../src/core/hooks/summary-hooks.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import type { CompactionEntry } from "../../../src/core/session/format/types.js";
import { runCompaction, type RunCompactionOptions, type RunProgress } from "../../../src/core/write/index.js";
import { TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { longTurnSession, MODEL_ID, piOpen, PROVIDER, removeDir, sha, tempDir } from "./support/sessions.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
const dir = tempDir();
const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 1500 };

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("MODEL TEXT") });
  agent = await writeLoopbackAgentDir(server);
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
  removeDir(dir);
});

function options(path: string, extra: Partial<RunCompactionOptions> = {}): RunCompactionOptions {
  return { session: openSessionSync(path), agentDir: agent.agentDir, settings, summarizer: { model: `${PROVIDER}/${MODEL_ID}` }, maxRetries: 0, ...extra };
}

describe("before_compact / after_compact hooks", () => {
  it("a cancel writes nothing and calls no model", async () => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    const hooks = new SummaryHooks();
    hooks.on("before_compact", () => ({ cancel: true }));
    const start = server.requests.length;
    const result = await runCompaction(options(path, { hooks }));
    expect(result).toMatchObject({ outcome: "cancelled", written: false, entry: null });
    expect(server.requests.length).toBe(start);
    expect(sha(path)).toBe(hash);
  });

  it("a supplied compaction is written as is, fromHook true (as pi), and after_compact sees the written entry", async () => {
    const { path, ids } = longTurnSession(dir);
    const hooks = new SummaryHooks();
    const seen: { preparationKept?: string; customInstructions?: string } = {};
    hooks.on("before_compact", (event) => {
      seen.preparationKept = event.preparation.firstKeptEntryId;
      seen.customInstructions = event.customInstructions;
      return { compaction: { summary: "FROM THE HOOK", firstKeptEntryId: ids.u3!, tokensBefore: 42, details: { mine: true } } };
    });
    let after: { entry: CompactionEntry; fromHook: boolean } | undefined;
    hooks.on("after_compact", (event) => {
      after = event;
    });
    const start = server.requests.length;
    const result = await runCompaction(options(path, { hooks, instructions: "focus" }));
    expect(server.requests.length).toBe(start);
    expect(seen.customInstructions).toBe("focus");
    expect(seen.preparationKept).toBeTruthy();
    expect(result.entry).toMatchObject({ summary: "FROM THE HOOK", firstKeptEntryId: ids.u3, tokensBefore: 42, details: { mine: true }, fromHook: true });
    expect(result.model).toBe("hook");
    expect(after).toEqual({ entry: result.entry, fromHook: true });
    const view = piOpen(path, dir);
    expect(view.entries.at(-1)).toEqual(result.entry);
  });

  it("a hook that throws is reported and skipped; the model writes the summary", async () => {
    const { path } = longTurnSession(dir);
    const hooks = new SummaryHooks();
    hooks.on("before_compact", () => {
      throw new Error("hook broke");
    }, "broken");
    const result = await runCompaction(options(path, { hooks }));
    expect(result.written).toBe(true);
    expect(result.entry!.summary.startsWith("MODEL TEXT")).toBe(true);
    expect(result.warnings.join("\n")).toContain("hook broke");
  });
});

describe("confirm (preview and edit)", () => {
  it("writes the edited text; the proposal shows what would be written", async () => {
    const { path } = longTurnSession(dir);
    let proposed: CompactionEntry | undefined;
    const result = await runCompaction(
      options(path, {
        confirm: async (proposal) => {
          proposed = proposal.entry;
          expect(proposal.model).toBe(`${PROVIDER}/${MODEL_ID}`);
          return `EDITED\n${proposal.entry.summary}`;
        },
      }),
    );
    expect(proposed!.summary.startsWith("MODEL TEXT")).toBe(true);
    expect(result.entry!.summary).toBe(`EDITED\n${proposed!.summary}`);
    expect((piOpen(path, dir).context.messages[0] as { summary: string }).summary).toBe(result.entry!.summary);
  });

  it("null discards: nothing written", async () => {
    const { path } = longTurnSession(dir);
    const hash = sha(path);
    const result = await runCompaction(options(path, { confirm: async () => null }));
    expect(result).toMatchObject({ outcome: "discarded", written: false, entry: null });
    expect(sha(path)).toBe(hash);
  });
});

describe("custom prompt files", () => {
  it("pi-sessions.json's compactionPromptFile replaces pi's instructions; the focus text still follows", async () => {
    const promptFile = join(agent.agentDir, "my-compaction-prompt.md");
    writeFileSync(promptFile, "Summarise as a haiku.\n");
    writeFileSync(join(agent.agentDir, "pi-sessions.json"), JSON.stringify({ compactionPromptFile: "my-compaction-prompt.md" }));
    try {
      const { path, ids } = longTurnSession(dir);
      const start = server.requests.length;
      await runCompaction(options(path, { leafId: ids.u3, settings: { ...settings, keepRecentTokens: 1 }, instructions: "FOCUS" }));
      const prompt = server.requests[start]!.promptText;
      expect(prompt).toContain("</conversation>\n\nSummarise as a haiku.\n\nAdditional focus: FOCUS");
      expect(prompt).not.toContain(SUMMARIZATION_PROMPT);
    } finally {
      writeFileSync(join(agent.agentDir, "pi-sessions.json"), "{}");
    }
  });

  it("a project prompt file is ignored in an untrusted workspace (with a warning)", async () => {
    const promptFile = join(dir, "project-prompt.md");
    writeFileSync(promptFile, "PROJECT PROMPT");
    const { path, ids } = longTurnSession(dir);
    const run = async (trustProject: boolean) => {
      const start = server.requests.length;
      const result = await runCompaction(options(path, { leafId: ids.u3, settings: { ...settings, keepRecentTokens: 1 }, promptFile: { path: promptFile, scope: "project" }, trustProject, dryRun: true }));
      return { prompt: server.requests[start]!.promptText, warnings: result.warnings };
    };
    const untrusted = await run(false);
    expect(untrusted.prompt).toContain(SUMMARIZATION_PROMPT);
    expect(untrusted.prompt).not.toContain("PROJECT PROMPT");
    expect(untrusted.warnings.join("\n")).toMatch(/not trusted/);
    const trusted = await run(true);
    expect(trusted.prompt).toContain("PROJECT PROMPT");
  });
});

describe("progress", () => {
  it("reports the phases in order", async () => {
    const { path } = longTurnSession(dir);
    const phases: RunProgress["phase"][] = [];
    await runCompaction(options(path, { onProgress: (p) => phases.push(p.phase) }));
    expect(phases).toEqual(["prepare", "summarize", "write", "done"]);
  });
});
