// completeSummary through real pi-ai over real HTTP to the loopback model
// server (test/support/model-server.ts). Nothing is mocked: the model, its key
// and headers come from a temp agent dir's models.json/auth.json.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { completeSummary } from "../../../src/core/summarize/call-model.js";
import { ModelCallError } from "../../../src/core/summarize/model-call-error.js";
import type { ModelCallErrorKind } from "../../../src/core/summarize/model-call-error.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import type { ThinkingLevel } from "../../../src/core/summarize/thinking-level.js";
import { LOOPBACK_ANTHROPIC, LOOPBACK_OPENAI, TEST_KEY, writeLoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import type { LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer } from "../../support/model-server.js";
import type { ModelScenario, ModelServer, RecordedRequest } from "../../support/model-server.js";

let server: ModelServer;
let agent: LoopbackAgentDir;

beforeAll(async () => {
  server = await startModelServer({ expectedKey: TEST_KEY });
  agent = await writeLoopbackAgentDir(server);
});

afterAll(async () => {
  await server.close();
  await agent.cleanup();
});

const SYSTEM = "You summarise coding sessions.";

async function call(
  provider: string,
  modelId: string,
  scenario: ModelScenario,
  extra: { maxTokens?: number; thinkingLevel?: ThinkingLevel; signal?: AbortSignal; timeoutMs?: number; userText?: string } = {},
): Promise<{ result: Promise<string>; request: Promise<RecordedRequest> }> {
  const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${provider}/${modelId}` });
  const index = server.requests.length;
  server.respond = () => scenario;
  const result = completeSummary({
    model: resolved.model,
    apiKey: resolved.apiKey,
    headers: resolved.headers,
    systemPrompt: SYSTEM,
    userText: extra.userText ?? `<conversation>request ${index}</conversation>`,
    maxTokens: extra.maxTokens ?? 2048,
    thinkingLevel: extra.thinkingLevel,
    signal: extra.signal,
    timeoutMs: extra.timeoutMs,
    maxRetries: 0,
  });
  result.catch(() => undefined);
  return { result, request: server.waitForRequest(index) };
}

async function failureOf(result: Promise<string>): Promise<ModelCallError> {
  try {
    await result;
  } catch (error) {
    expect(error).toBeInstanceOf(ModelCallError);
    return error as ModelCallError;
  }
  throw new Error("expected the call to fail");
}

const body = (r: RecordedRequest): Record<string, unknown> => r.body as Record<string, unknown>;

describe.each([
  { name: "openai-completions", provider: LOOPBACK_OPENAI, path: "/v1/chat/completions" },
  { name: "anthropic-messages", provider: LOOPBACK_ANTHROPIC, path: "/v1/messages" },
])("completeSummary over $name", ({ provider, path }) => {
  it("returns the streamed text and sends the key, prompt and model", async () => {
    const text = "## Goal\nShip the parser.\n\n## Progress\n- [x] tokenizer";
    const { result, request } = await call(provider, "summarizer", scenarios.success(text, { chunks: 5 }), {
      userText: "<conversation>[User]: fix the parser</conversation>",
    });
    expect(await result).toBe(text);
    const req = await request;
    expect(req.path).toBe(path);
    expect(req.auth).toEqual({ present: true, header: req.auth.header, matchesExpectedKey: true });
    expect(req.promptText).toContain(SYSTEM);
    expect(req.promptText).toContain("[User]: fix the parser");
    expect(body(req).model).toBe("summarizer");
    expect(body(req).stream).toBe(true);
    expect(JSON.stringify(req.headers)).not.toContain(TEST_KEY);
  });

  it.each<[string, ModelScenario, ModelCallErrorKind, number | undefined]>([
    ["HTTP 401", scenarios.httpError(401, `Incorrect API key provided: ${TEST_KEY}`), "auth", 401],
    ["HTTP 403", scenarios.httpError(403), "auth", 403],
    ["HTTP 429", scenarios.httpError(429, "Rate limit reached"), "rate-limit", 429],
    ["HTTP 500", scenarios.httpError(500, "internal"), "server", 500],
    ["HTTP 400", scenarios.httpError(400, "bad request"), "other", 400],
    ["a stream cut mid-way", scenarios.cut("one two three four five six", 2), "network", undefined],
    ["an empty answer", scenarios.empty(), "empty", undefined],
  ])("maps %s to kind %s", async (_label, scenario, kind, status) => {
    const { result } = await call(provider, "summarizer", scenario);
    const error = await failureOf(result);
    expect(error.kind).toBe(kind);
    expect(error.status).toBe(status);
    expect(error.message).not.toContain(TEST_KEY);
    expect(error.message).toContain(`${provider}/summarizer`);
  });

  it("maps a length stop to truncated and keeps the partial text", async () => {
    const { result } = await call(provider, "summarizer", scenarios.length("## Goal\nhalf a summ"));
    const error = await failureOf(result);
    expect(error.kind).toBe("truncated");
    expect(error.partialText).toBe("## Goal\nhalf a summ");
  });

  it("times out on a server that never answers, and closes the connection", async () => {
    const { result, request } = await call(provider, "summarizer", scenarios.hang(), { timeoutMs: 300 });
    const error = await failureOf(result);
    expect(error.kind).toBe("timeout");
    const req = await request;
    await req.closed;
    expect(req.clientClosedEarly).toBe(true);
  });

  it("aborts mid-stream: the signal reaches the HTTP request and the server sees the client go", async () => {
    const controller = new AbortController();
    const { result, request } = await call(provider, "summarizer", scenarios.slow("a b c d e f g h i j", 10, 40), {
      signal: controller.signal,
    });
    const req = await request;
    await req.waitForChunks(2);
    controller.abort();
    const error = await failureOf(result);
    expect(error.kind).toBe("aborted");
    await req.closed;
    expect(req.clientClosedEarly).toBe(true);
    expect(req.finished).toBe(false);
    expect(req.chunksWritten).toBeLessThan(10);
  });

  it("fails at once as aborted when the signal is already aborted, without a request", async () => {
    const before = server.requests.length;
    const { result } = await call(provider, "summarizer", scenarios.success("never"), { signal: AbortSignal.abort() });
    expect((await failureOf(result)).kind).toBe("aborted");
    expect(server.requests.length).toBe(before);
  });

  it("clamps maxTokens to the model's output limit (pi bug #4390)", async () => {
    const { result, request } = await call(provider, "small-output", scenarios.success("ok"), { maxTokens: 13107 });
    await result;
    const sent = body(await request);
    expect(sent.max_completion_tokens ?? sent.max_tokens).toBe(1000);
  });

  it("sends maxTokens unchanged when under the model's limit", async () => {
    const { result, request } = await call(provider, "summarizer", scenarios.success("ok"), { maxTokens: 2048 });
    await result;
    const sent = body(await request);
    expect(sent.max_completion_tokens ?? sent.max_tokens).toBe(2048);
  });

  it("returns only the answer text, not the model's thinking", async () => {
    const { result } = await call(provider, "reasoner", scenarios.success("the summary", { thinking: "let me think" }), {
      thinkingLevel: "high",
    });
    expect(await result).toBe("the summary");
  });
});

describe("the loopback server's auth record", () => {
  it("records a wrong key as present but not matching, and never stores it", async () => {
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer` });
    const index = server.requests.length;
    server.respond = () => scenarios.httpError(401, "Incorrect API key provided");
    const error = await failureOf(
      completeSummary({ model: resolved.model, apiKey: "sk-wrong-key-000000", systemPrompt: SYSTEM, userText: "x", maxTokens: 10, maxRetries: 0 }),
    );
    expect(error.kind).toBe("auth");
    const req = await server.waitForRequest(index);
    expect(req.auth).toEqual({ present: true, header: "authorization", matchesExpectedKey: false });
    expect(JSON.stringify(req)).not.toContain("sk-wrong-key-000000");
  });
});

describe("reasoning options (pi: only for a reasoning model with a level other than off)", () => {
  it("openai-completions: reasoning_effort only when allowed", async () => {
    const bodies: Record<string, unknown>[] = [];
    for (const [model, level] of [
      ["reasoner", "high"],
      ["reasoner", "off"],
      ["reasoner", undefined],
      ["summarizer", "high"],
    ] as const) {
      const { result, request } = await call(LOOPBACK_OPENAI, model, scenarios.success("ok"), { thinkingLevel: level });
      await result;
      bodies.push(body(await request));
    }
    expect(bodies.map((b) => b.reasoning_effort)).toEqual(["high", undefined, undefined, undefined]);
  });

  it("anthropic-messages: thinking enabled only when allowed", async () => {
    const bodies: Record<string, unknown>[] = [];
    for (const [model, level] of [
      ["reasoner", "medium"],
      ["reasoner", "off"],
      ["summarizer", "high"],
    ] as const) {
      const { result, request } = await call(LOOPBACK_ANTHROPIC, model, scenarios.success("ok"), { thinkingLevel: level });
      await result;
      bodies.push(body(await request));
    }
    const thinking = bodies.map((b) => (b.thinking as { type?: string } | undefined)?.type);
    // pi-ai sends {type:"disabled"} to a reasoning model called without reasoning, nothing to a non-reasoning one.
    expect(thinking).toEqual(["enabled", "disabled", undefined]);
    const enabled = bodies[0]?.thinking as { budget_tokens: number };
    expect(enabled.budget_tokens).toBeGreaterThan(0);
    expect(bodies[0]?.max_tokens as number).toBeLessThanOrEqual(32000);
  });
});

describe("parallel calls answered per prompt (split-turn compaction)", () => {
  it("each call gets the answer chosen for its prompt", async () => {
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer` });
    server.respond = (req) =>
      req.promptText.includes("TURN PREFIX") ? scenarios.slow("prefix summary", 3, 10) : scenarios.success("history summary");
    const common = { model: resolved.model, apiKey: resolved.apiKey, systemPrompt: SYSTEM, maxTokens: 1000, maxRetries: 0 };
    const [history, prefix] = await Promise.all([
      completeSummary({ ...common, userText: "<conversation>HISTORY</conversation>" }),
      completeSummary({ ...common, userText: "<conversation>TURN PREFIX</conversation>" }),
    ]);
    expect(history).toBe("history summary");
    expect(prefix).toBe("prefix summary");
  });
});
