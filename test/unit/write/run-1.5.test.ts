// The 1.5 writers' choices that need no pi 1.5.2 oracle: the automatic
// version (a session with pi 1.x markers is written the 1.5 way, through the
// CLI with piVersion in --json), branch summaries reasoning at the thinking
// level (1.5) or not at all (0.73), a session's "max" thinking level sent as
// pi-ai 0.73.1's highest level, and 0.73 calls unchanged (2048 tokens, 0.73
// system prompt). Model calls through real pi-ai to the loopback server.

import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BRANCH_SUMMARY_MAX_TOKENS } from "../../../src/core/branch/branch-summary-request.js";
import { SUMMARIZATION_SYSTEM_PROMPT, SUMMARIZATION_SYSTEM_PROMPT_1_5 } from "../../../src/core/compaction/prompts.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import { runBranchSummary } from "../../../src/core/write/index.js";
import { cli } from "../cli/run-cli";
import { LOOPBACK_OPENAI, TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";
import { removeDir, tempDir } from "./support/sessions.js";

const FIXTURES = new URL("../../fixtures/pi-1.5/", import.meta.url).pathname;
const dir = tempDir("pi-sessions-run-15-");
let server: ModelServer;
let agent: LoopbackAgentDir;
beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("a summary") });
  agent = await writeLoopbackAgentDir(server);
});
afterAll(async () => {
  await agent.cleanup();
  await server.close();
  removeDir(dir);
});

let n = 0;
const copy = (name: string): string => {
  const target = join(dir, `${n++}-${name}`);
  copyFileSync(join(FIXTURES, name), target);
  return target;
};
type Body = Record<string, unknown> & { messages: { role: string; content: unknown }[] };

describe("branch summary call rules per version (06, leaving Y for the X tip)", () => {
  async function bodyFor(piVersion: "0.73" | "1.5"): Promise<Body> {
    const first = server.requests.length;
    await runBranchSummary({
      session: openSessionSync(copy("06-branch-summary.jsonl")),
      piVersion,
      targetId: "a1d1f5e0",
      agentDir: agent.agentDir,
      summarizer: { model: `${LOOPBACK_OPENAI}/reasoner`, thinkingLevel: "high" },
      maxRetries: 0,
    });
    return server.requests[first]!.body as Body;
  }

  it("1.5: the 1.5 system prompt, the model's limit, reasoning at the thinking level", async () => {
    const body = await bodyFor("1.5");
    expect(body.messages[0]!.content).toBe(SUMMARIZATION_SYSTEM_PROMPT_1_5);
    expect(body.max_completion_tokens ?? body.max_tokens).toBe(32000);
    expect(body.reasoning_effort).toBe("high");
  });

  it("0.73 unchanged: its prompt, 2048 tokens, no reasoning", async () => {
    const body = await bodyFor("0.73");
    expect(body.messages[0]!.content).toBe(SUMMARIZATION_SYSTEM_PROMPT);
    expect(body.max_completion_tokens ?? body.max_tokens).toBe(BRANCH_SUMMARY_MAX_TOKENS);
    expect(body.reasoning_effort).toBeUndefined();
  });
});

describe("thinking level max", () => {
  it("a session at pi 1.5's \"max\" reasons at pi-ai 0.73.1's highest level, xhigh", async () => {
    const file = copy("06-branch-summary.jsonl");
    const at = new Date().toISOString();
    const extra = [
      { type: "model_change", id: "mc000001", parentId: "836554d3", timestamp: at, provider: LOOPBACK_OPENAI, modelId: "reasoner" },
      { type: "thinking_level_change", id: "tl000001", parentId: "mc000001", timestamp: at, thinkingLevel: "max" },
    ];
    writeFileSync(file, readFileSync(file, "utf8") + extra.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const withMax = await resolveSummaryModel({ agentDir: agent.agentDir, pathEntries: openSessionSync(file).pathTo(), piVersion: "1.5" });
    expect(withMax.thinkingLevel).toBe("xhigh");
  });
});

describe("CLI: the automatic choice writes a session with pi 1.x markers the 1.5 way", () => {
  it("compact --digest --json on a pi 1.5.2 session: piVersion 1.5, the systemMessage checkpoint", async () => {
    const file = copy("01-system-messages.jsonl");
    const run = await cli(["compact", file, "--digest", "--keep-recent-tokens", "2000", "--agent-dir", agent.agentDir, "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const out = run.json<{ piVersion: string; entry: { systemMessage?: { role: string }; timestamp: string } }>();
    expect(out.piVersion).toBe("1.5");
    expect(out.entry.systemMessage?.role).toBe("system");
    const forced = await cli(["compact", copy("01-system-messages.jsonl"), "--digest", "--keep-recent-tokens", "2000", "--agent-dir", agent.agentDir, "--json", "--pi-version", "0.73"]);
    expect(forced.json<{ piVersion: string; entry: Record<string, unknown> }>()).toMatchObject({ piVersion: "0.73" });
    expect(forced.json<{ entry: Record<string, unknown> }>().entry.systemMessage).toBeUndefined();
  });

  it("branch-summary and migrate --json carry piVersion", async () => {
    const bs = await cli(["branch-summary", copy("06-branch-summary.jsonl"), "--target", "a1d1f5e0", "--digest", "--agent-dir", agent.agentDir, "--json"]);
    expect(bs.code, bs.stderr).toBe(0);
    expect(bs.json()).toMatchObject({ piVersion: "1.5", entry: { fromId: "836554d3" } });
    const mg = await cli(["migrate", copy("06-branch-summary.jsonl"), "--json", "--pi-version", "1.5"]);
    expect(mg.code, mg.stderr).toBe(0);
    expect(mg.json()).toMatchObject({ piVersion: "1.5", fromVersion: 3, toVersion: 3 });
  });
});

describe("an answer that calls a tool", () => {
  it("1.5: a failure (exit 2, file byte-identical); 0.73 keeps its rule and writes the text", async () => {
    server.respond = () => scenarios.toolCall("partial summary", "read", { path: "x" });
    const file = copy("13-cut-at-custom-message.jsonl");
    const before = readFileSync(file);
    const run = await cli(["compact", file, "--model", `${LOOPBACK_OPENAI}/summarizer`, "--keep-recent-tokens", "2000", "--max-retries", "0", "--agent-dir", agent.agentDir, "--pi-version", "1.5"]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^error: .*tried to call a tool/m);
    expect(readFileSync(file).equals(before)).toBe(true);
    const old = await cli(["compact", file, "--model", `${LOOPBACK_OPENAI}/summarizer`, "--keep-recent-tokens", "2000", "--max-retries", "0", "--agent-dir", agent.agentDir, "--pi-version", "0.73", "--json"]);
    expect(old.code, old.stderr).toBe(0);
    expect(old.json<{ entry: { summary: string } }>().entry.summary).toContain("partial summary");
    server.respond = () => scenarios.success("a summary");
  });
});
