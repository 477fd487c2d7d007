// pi 1.6's call rules, followed for every summary call, through real pi-ai
// over real HTTP to the loopback model server: a reasoning model behind a
// non-OpenAI OpenAI-compatible endpoint gets the system prompt as `system`
// (pi-ai 0.73.1 alone sends `developer`); a session model pi-ai's registry does
// not know is still called through its provider's API with conservative limits.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { completeSummaryWithUsage } from "../../../src/core/summarize/call-model.js";
import { UNKNOWN_MODEL_MAX_TOKENS, withSummaryCallRules } from "../../../src/core/summarize/call-rules.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import { LOOPBACK_OPENAI, TEST_KEY, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";

let server: ModelServer;
let agent: LoopbackAgentDir;
beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY, respond: () => scenarios.success("## Goal\nsummary") });
  agent = await writeLoopbackAgentDir(server);
});
afterAll(async () => {
  await server.close();
  await agent.cleanup();
});

const chain = (...messages: Record<string, unknown>[]): SessionEntry[] =>
  messages.map((message, i) => ({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: "2026-11-01T10:00:00.000Z", message }) as unknown as SessionEntry);
const assistantOf = (provider: string, model: string) => ({ role: "assistant", content: [{ type: "text", text: "ok" }], provider, model, api: "openai-completions", stopReason: "stop", timestamp: 1 });

describe("pi 1.6's call rules", () => {
  it("a reasoning model on a non-OpenAI OpenAI-compatible endpoint: the system prompt goes as `system`", async () => {
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/reasoner` });
    const start = server.requests.length;
    await completeSummaryWithUsage({ model: resolved.model, apiKey: resolved.apiKey, systemPrompt: "SYSTEM RULES", userText: "hello", thinkingLevel: "low", maxRetries: 0 });
    const body = server.requests[start]!.body as { messages: { role: string; content: unknown }[] };
    expect(body.messages[0]!.role).toBe("system");
    expect(JSON.stringify(body.messages[0]!.content)).toContain("SYSTEM RULES");
  });

  it("OpenAI's own endpoint and an explicit compat setting keep what they say", () => {
    const base = { id: "o", name: "o", api: "openai-completions", provider: "openai", baseUrl: "https://api.openai.com/v1", reasoning: true, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 } as never;
    expect(withSummaryCallRules(base)).toBe(base);
    const explicit = { ...(base as object), provider: "groq", baseUrl: "https://api.groq.com/openai/v1", compat: { supportsDeveloperRole: true } } as never;
    expect(withSummaryCallRules(explicit)).toBe(explicit);
    const groq = { ...(base as object), provider: "groq", baseUrl: "https://api.groq.com/openai/v1" } as never;
    expect((withSummaryCallRules(groq) as { compat: { supportsDeveloperRole: boolean } }).compat.supportsDeveloperRole).toBe(false);
  });

  it("a session model unknown to pi-ai's registry is called through its provider's API with sensible limits", async () => {
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, pathEntries: chain({ role: "user", content: "hi", timestamp: 1 }, assistantOf(LOOPBACK_OPENAI, "gpt-6.2-sol")) });
    expect(resolved.label).toBe(`${LOOPBACK_OPENAI}/gpt-6.2-sol`);
    expect(resolved.warnings.join(" ")).toContain("not in pi-ai's model list");
    const start = server.requests.length;
    const answer = await completeSummaryWithUsage({ model: resolved.model, apiKey: resolved.apiKey, systemPrompt: "s", userText: "hello", maxTokens: 50_000, maxRetries: 0 });
    expect(answer.text).toContain("summary");
    const body = server.requests[start]!.body as { model: string; max_completion_tokens?: number };
    expect(body.model).toBe("gpt-6.2-sol");
    expect(body.max_completion_tokens).toBeLessThanOrEqual(UNKNOWN_MODEL_MAX_TOKENS);
  });

  it("pi's built-in openai provider: openai/gpt-6.2-sol resolves to the Responses API of openai", async () => {
    const resolved = await resolveSummaryModel({
      agentDir: agent.agentDir,
      pathEntries: chain({ role: "user", content: "hi", timestamp: 1 }, assistantOf("openai", "gpt-6.2-sol")),
      runtimeApiKeys: { openai: "sk-test" },
    });
    expect(resolved.model).toMatchObject({ provider: "openai", id: "gpt-6.2-sol", baseUrl: "https://api.openai.com/v1" });
    expect(resolved.model.maxTokens).toBeLessThanOrEqual(UNKNOWN_MODEL_MAX_TOKENS);
  });
});
