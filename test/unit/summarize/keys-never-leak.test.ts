// Keys never appear in output, logs, errors or thrown messages. Every error
// path below has a key within reach (in the broken file, echoed by the
// provider, in a refresh failure, in a header); each error is checked in every
// form a caller might print it, and everything written to the console or
// stdout/stderr meanwhile is checked too.

import { inspect } from "node:util";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { completeSummary } from "../../../src/core/summarize/call-model.js";
import { readAuthJson } from "../../../src/core/summarize/auth-json.js";
import { readPiSessionsConfig } from "../../../src/core/summarize/pi-sessions-config.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import { LOOPBACK_ANTHROPIC, LOOPBACK_OPENAI, writeLoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import type { LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer } from "../../support/model-server.js";
import type { ModelServer } from "../../support/model-server.js";

const KEY = "sk-live-SECRET-5f1e2d3c4b5a69788796a5b4";
const HEADER_SECRET = "hdr-SECRET-0a9b8c7d6e5f4a3b";
const REFRESH = "rt-SECRET-refresh-77aa88bb99";
const ACCESS = "at-SECRET-access-11cc22dd33";
const SECRETS = [KEY, HEADER_SECRET, REFRESH, ACCESS];

let server: ModelServer;
let agent: LoopbackAgentDir;
let printed: string[];

beforeAll(async () => {
  server = await startModelServer({ expectedKey: KEY });
});
afterAll(async () => {
  await server.close();
});

beforeEach(async () => {
  printed = [];
  const capture = (...args: unknown[]): void => {
    printed.push(args.map((a) => (typeof a === "string" ? a : inspect(a))).join(" "));
  };
  for (const method of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, method).mockImplementation(capture);
  vi.spyOn(process.stdout, "write").mockImplementation((chunk: unknown) => (capture(String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk: unknown) => (capture(String(chunk)), true));
  vi.stubEnv("ANTHROPIC_API_KEY", "");
  vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "");
  vi.stubEnv("LOOPBACK_HEADER_VAR", HEADER_SECRET);
  agent = await writeLoopbackAgentDir(server, {
    key: KEY,
    extraProviders: {
      [`${LOOPBACK_OPENAI}-hdr`]: {
        baseUrl: server.openaiBaseUrl,
        api: "openai-completions",
        apiKey: KEY,
        headers: { "X-Secret": "LOOPBACK_HEADER_VAR" },
        models: [{ id: "summarizer" }],
      },
    },
  });
});

afterEach(async () => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
  await agent.cleanup();
  for (const line of printed) for (const secret of SECRETS) expect(line).not.toContain(secret);
});

function expectClean(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  const e = error as Error;
  const forms = [e.message, String(e), e.stack ?? "", inspect(e, { depth: 5 }), JSON.stringify(e)];
  for (const form of forms) for (const secret of SECRETS) expect(form).not.toContain(secret);
}

async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("config files holding a key", () => {
  it.each([
    ["a bare word next to the key", `{"providers": {"p": {"apiKey": "${KEY}", "api": oops}}}`],
    ["an unquoted key", `{"providers": {"p": {"apiKey": ${KEY}}}}`],
    ["a raw line break inside the key's string", `{"providers": {"p": {"apiKey": "${KEY}\n"}}}`],
    ["an unterminated string", `{"providers": {"p": {"apiKey": "${KEY}`],
    ["a schema error", `{"providers": {"p": {"apiKey": "${KEY}", "models": "${KEY}"}}}`],
  ])("models.json with %s", async (_label, content) => {
    await writeFile(join(agent.agentDir, "models.json"), content);
    expectClean(await thrown(() => resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer` })));
  });

  it.each([
    ["broken JSON", `{"p": {"type": "api_key", "key": ${KEY}}}`],
    ["not an object", `["${KEY}"]`],
  ])("auth.json with %s", async (_label, content) => {
    await writeFile(join(agent.agentDir, "auth.json"), content);
    expectClean(await thrown(() => readAuthJson(join(agent.agentDir, "auth.json"))));
    expectClean(await thrown(() => resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer` })));
  });

  it("pi-sessions.json with a key pasted into it", async () => {
    await writeFile(join(agent.agentDir, "pi-sessions.json"), `{"presets": {"x": {"model": ${KEY}}}}`);
    expectClean(await thrown(() => readPiSessionsConfig(agent.agentDir)));
  });
});

describe("resolution failures", () => {
  it("missing key, failing key command, failed OAuth refresh", async () => {
    expectClean(await thrown(() => resolveSummaryModel({ agentDir: agent.agentDir, model: "anthropic/claude-3-5-haiku-20241022" })));
    await writeFile(join(agent.agentDir, "auth.json"), JSON.stringify({ [LOOPBACK_OPENAI]: { type: "api_key", key: `!echo ${KEY} >&2; exit 1` } }));
    expectClean(await thrown(() => resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer` })));
    await writeFile(
      join(agent.agentDir, "auth.json"),
      JSON.stringify({ anthropic: { type: "oauth", refresh: REFRESH, access: ACCESS, expires: 1 } }),
    );
    const failing = {
      id: "anthropic",
      refreshToken: async () => {
        throw new Error(`refresh ${REFRESH} rejected; access ${ACCESS}`);
      },
      getApiKey: () => ACCESS,
    };
    expectClean(
      await thrown(() =>
        resolveSummaryModel({ agentDir: agent.agentDir, model: "anthropic/claude-3-5-haiku-20241022", oauthProviders: async () => failing }),
      ),
    );
  });
});

describe("pi 1.5 config syntax", () => {
  it("unset variables in keys and headers, credential env maps holding the key, failing commands", async () => {
    const model = `${LOOPBACK_OPENAI}-hdr/summarizer`;
    const resolve = () => resolveSummaryModel({ agentDir: agent.agentDir, model, piVersion: "1.5" });
    // The key sits in the env map; a header names a variable that is not set.
    await writeFile(join(agent.agentDir, "auth.json"), JSON.stringify({ [`${LOOPBACK_OPENAI}-hdr`]: { type: "api_key", key: "$K", env: { K: KEY, H: HEADER_SECRET } } }));
    expect((await resolve()).headers?.["X-Secret"]).toBe("LOOPBACK_HEADER_VAR");
    await writeFile(
      join(agent.agentDir, "models.json"),
      JSON.stringify({ providers: { [`${LOOPBACK_OPENAI}-hdr`]: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey: KEY, headers: { "X-Secret": "$H-$UNSET_ONE" }, models: [{ id: "summarizer" }] } } }),
    );
    expectClean(await thrown(resolve));
    // The key inside a template whose variable is unset.
    await writeFile(join(agent.agentDir, "auth.json"), JSON.stringify({}));
    await writeFile(
      join(agent.agentDir, "models.json"),
      JSON.stringify({ providers: { [`${LOOPBACK_OPENAI}-hdr`]: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey: `${KEY}$UNSET_TWO`, models: [{ id: "summarizer" }] } } }),
    );
    expectClean(await thrown(resolve));
    // A failing command that echoes the key.
    await writeFile(join(agent.agentDir, "auth.json"), JSON.stringify({ [`${LOOPBACK_OPENAI}-hdr`]: { type: "api_key", key: `!echo ${KEY}; exit 3`, env: { X: KEY } } }));
    expectClean(await thrown(resolve));
  });
});

describe("model calls", () => {
  it.each([
    [LOOPBACK_OPENAI, scenarios.httpError(401, `Incorrect API key provided: ${KEY}`)],
    [LOOPBACK_ANTHROPIC, scenarios.httpError(401, `invalid x-api-key ${KEY}`)],
    [LOOPBACK_OPENAI, scenarios.httpError(500, `upstream rejected key=${KEY}`)],
    [LOOPBACK_ANTHROPIC, scenarios.httpError(429, `slow down ${KEY}`)],
    [LOOPBACK_OPENAI, scenarios.cut(`text ${KEY} text`, 1)],
    [LOOPBACK_OPENAI, scenarios.hang()],
    [`${LOOPBACK_OPENAI}-hdr`, scenarios.httpError(400, `bad header X-Secret: ${HEADER_SECRET}`)],
  ])("%s answering %j", async (provider, scenario) => {
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${provider}/summarizer` });
    expect(resolved.apiKey).toBe(KEY);
    server.respond = () => scenario;
    expectClean(
      await thrown(() =>
        completeSummary({
          model: resolved.model,
          apiKey: resolved.apiKey,
          headers: resolved.headers,
          systemPrompt: "s",
          userText: "u",
          maxTokens: 100,
          timeoutMs: 300,
          maxRetries: 0,
        }),
      ),
    );
  });

  it("a key-echoing provider's message is still useful: redacted, not dropped", async () => {
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer` });
    server.respond = () => scenarios.httpError(401, `Incorrect API key provided: ${KEY}`);
    const error = (await thrown(() =>
      completeSummary({ model: resolved.model, apiKey: resolved.apiKey, systemPrompt: "s", userText: "u", maxTokens: 100, maxRetries: 0 }),
    )) as Error;
    expect(error.message).toContain("Incorrect API key provided: [redacted]");
  });
});
