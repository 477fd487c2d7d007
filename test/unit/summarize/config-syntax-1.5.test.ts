// Config values the way each pi version reads them (spec pi-1.5-semantics §5):
// 0.73 reads a bare name as an environment variable when set; 1.5 reads plain
// text literally, interpolates $NAME / ${NAME} (the credential's env map first,
// then the process env; unset → unresolved), $$ → $, $! → !, and runs !command.
// End to end: keys resolved from models.json / auth.json reach the loopback
// server through real pi-ai, and `$NAME` read the 0.73 way is sent literally.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { completeSummary } from "../../../src/core/summarize/call-model.js";
import { resolveConfigValue } from "../../../src/core/summarize/config-value.js";
import { isModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import { LOOPBACK_OPENAI, writeLoopbackAgentDir, type LoopbackAgentDir } from "../../support/model-server-agent-dir.js";
import { scenarios, startModelServer, type ModelServer } from "../../support/model-server.js";

const KEY = "sk-syntax-SECRET-9a8b7c6d5e4f3a2b";

describe("resolveConfigValue, pi 1.5 syntax", () => {
  const env = { ALPHA: "a-value", EMPTY: "", BETA: "b" } as NodeJS.ProcessEnv;
  const v15 = (config: string, credentialEnv?: Record<string, string>) => resolveConfigValue(config, { syntax: "1.5", env, credentialEnv });
  it.each([
    ["plain text is literal, even when it names a set variable", "ALPHA", "ALPHA"],
    ["$NAME", "$ALPHA", "a-value"],
    ["${NAME} inside text", "pre-${ALPHA}-post", "pre-a-value-post"],
    ["$NAME ends at the first non-name character", "$ALPHA.x", "a-value.x"],
    ["two variables", "$ALPHA:$BETA", "a-value:b"],
    ["$$ is a dollar", "cost$$5", "cost$5"],
    ["$! is a bang", "$!not-a-command", "!not-a-command"],
    ["a $ that starts no name stays", "a$-b $", "a$-b $"],
    ["${ without } stays", "x${ALPHA", "x${ALPHA"],
    ["${not a name} stays", "${1X}", "${1X}"],
  ])("%s", async (_label, config, expected) => {
    expect(await v15(config)).toMatchObject({ ok: true, value: expected });
  });

  it("an unset or empty variable leaves the value unresolved, naming the variables", async () => {
    expect(await v15("$NOPE-${EMPTY}")).toEqual({ ok: false, reason: "unset-variable", variables: ["NOPE", "EMPTY"] });
  });

  it("the credential's env map is read before the process env", async () => {
    expect(await v15("$ALPHA", { ALPHA: "from-credential" })).toMatchObject({ ok: true, value: "from-credential" });
    expect(await v15("$ONLY_HERE", { ONLY_HERE: "x1" })).toMatchObject({ ok: true, value: "x1" });
  });

  it("!command runs in both syntaxes", async () => {
    expect(await resolveConfigValue("!echo hi", { syntax: "1.5" })).toMatchObject({ ok: true, value: "hi", source: "command" });
    expect(await resolveConfigValue("!echo hi", { syntax: "0.73" })).toMatchObject({ ok: true, value: "hi", source: "command" });
  });

  it("0.73 keeps its rule: a bare name is the variable when set, anything else literal", async () => {
    expect(await resolveConfigValue("ALPHA", { env })).toMatchObject({ ok: true, value: "a-value" });
    expect(await resolveConfigValue("$ALPHA", { env })).toMatchObject({ ok: true, value: "$ALPHA" });
  });
});

describe("keys from models.json and auth.json, through real pi-ai to the loopback server", () => {
  let server: ModelServer;
  let agent: LoopbackAgentDir | undefined;
  beforeAll(async () => {
    server = await startModelServer({ expectedKey: KEY });
    server.respond = () => scenarios.success("summary text");
  });
  afterAll(async () => server.close());
  beforeEach(() => {
    vi.stubEnv("PI_SESSIONS_SYNTAX_KEY", KEY);
    vi.stubEnv("OPENAI_API_KEY", "");
  });
  afterEach(async () => {
    vi.unstubAllEnvs();
    await agent?.cleanup();
    agent = undefined;
  });

  async function callWith(piVersion: "0.73" | "1.5", model = `${LOOPBACK_OPENAI}/summarizer`): Promise<boolean> {
    const resolved = await resolveSummaryModel({ agentDir: agent!.agentDir, model, piVersion });
    expect(resolved.piVersion).toBe(piVersion);
    const before = server.requests.length;
    await completeSummary({ model: resolved.model, apiKey: resolved.apiKey, headers: resolved.headers, systemPrompt: "s", userText: "u", maxTokens: 100, maxRetries: 0 }).catch(() => undefined);
    return server.requests[before]!.auth.matchesExpectedKey;
  }

  it("models.json apiKey \"$NAME\": 1.5 interpolates it; 0.73 sends it literally (the 401 a 1.5 user gets today)", async () => {
    agent = await writeLoopbackAgentDir(server, { authJson: false, modelsJsonApiKey: "$PI_SESSIONS_SYNTAX_KEY" });
    expect(await callWith("1.5")).toBe(true);
    expect(await callWith("0.73")).toBe(false);
  });

  it("models.json apiKey as a bare variable name: 0.73 reads the variable, 1.5 sends the name literally", async () => {
    agent = await writeLoopbackAgentDir(server, { authJson: false, modelsJsonApiKey: "PI_SESSIONS_SYNTAX_KEY" });
    expect(await callWith("0.73")).toBe(true);
    expect(await callWith("1.5")).toBe(false);
  });

  it("auth.json api_key with an env map: ${NAME} from the map", async () => {
    agent = await writeLoopbackAgentDir(server, {
      authJson: { [LOOPBACK_OPENAI]: { type: "api_key", key: "${MY_TEAM_KEY}", env: { MY_TEAM_KEY: KEY } } },
    });
    expect(await callWith("1.5")).toBe(true);
  });

  it("auth.json api_key without key: a built-in provider's variable comes from the env map", async () => {
    agent = await writeLoopbackAgentDir(server, {
      authJson: { openai: { type: "api_key", env: { OPENAI_API_KEY: KEY } } },
      extraProviders: { openai: { baseUrl: server.openaiBaseUrl, api: "openai-completions" } },
    });
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: "openai/gpt-4o-mini", piVersion: "1.5" });
    expect(resolved.apiKey).toBe(KEY);
    // 0.73 does not know an api_key entry without key: no key at all.
    const error = await resolveSummaryModel({ agentDir: agent.agentDir, model: "openai/gpt-4o-mini", piVersion: "0.73" }).catch((e: unknown) => e);
    expect(isModelConfigError(error) && error.code).toBe("missing-key");
  });

  it("an unset $NAME in models.json is one clear error naming the variable and the file, never a key", async () => {
    agent = await writeLoopbackAgentDir(server, { authJson: false, modelsJsonApiKey: `$PI_SESSIONS_NOT_SET_${"X"}` });
    const error = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}/summarizer`, piVersion: "1.5" }).catch((e: unknown) => e);
    expect(isModelConfigError(error) && error.code).toBe("missing-key");
    expect((error as Error).message).toContain("PI_SESSIONS_NOT_SET_X");
    expect((error as Error).message).toContain("models.json");
  });

  it("header values are templates too, with the credential's env map", async () => {
    agent = await writeLoopbackAgentDir(server, {
      authJson: { [`${LOOPBACK_OPENAI}-h`]: { type: "api_key", key: KEY, env: { TEAM: "blue" } } },
      extraProviders: {
        [`${LOOPBACK_OPENAI}-h`]: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey: "unused", headers: { "X-Team": "team-$TEAM", "X-Cost": "$$1" }, models: [{ id: "summarizer" }] },
      },
    });
    const resolved = await resolveSummaryModel({ agentDir: agent.agentDir, model: `${LOOPBACK_OPENAI}-h/summarizer`, piVersion: "1.5" });
    expect(resolved.headers).toMatchObject({ "X-Team": "team-blue", "X-Cost": "$1" });
  });

  it("pi 1.5's provider id azure names pi-ai's azure-openai-responses models", async () => {
    agent = await writeLoopbackAgentDir(server, { authJson: { azure: { type: "api_key", key: KEY } } });
    const v15 = await resolveSummaryModel({ agentDir: agent.agentDir, model: "azure/gpt-4o-mini", piVersion: "1.5" });
    expect(v15.label).toBe("azure/gpt-4o-mini");
    expect(v15.model.api).toBe("azure-openai-responses");
    expect(v15.apiKey).toBe(KEY);
    const error = await resolveSummaryModel({ agentDir: agent.agentDir, model: "azure/gpt-4o-mini", piVersion: "0.73" }).catch((e: unknown) => e);
    expect(isModelConfigError(error) && error.code).toBe("unknown-model");
  });

  it("models.json with pi 1.5's new optional fields loads and the model works", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pi-sessions-agent-"));
    try {
      const models = {
        $schema: "https://example.invalid/models.schema.json",
        providers: {
          p15: {
            baseUrl: server.openaiBaseUrl,
            api: "openai-completions",
            apiKey: "$PI_SESSIONS_SYNTAX_KEY",
            oauth: "radius",
            models: [
              {
                id: "m",
                inputLimits: { maxRequestBytes: 1000000, images: { maxPerMessage: 2 } },
                promptCache: { short: 300 },
                samplingParams: { top_p: 0.9 },
                samplingParamsByThinkingLevel: { max: { top_k: 3 } },
                thinkingLevelMap: { max: "max", xhigh: null },
                cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, tiers: [{ inputTokensAbove: 200000, input: 2, output: 4, cacheRead: 0, cacheWrite: 0 }] },
              },
            ],
          },
        },
      };
      await writeFile(join(dir, "models.json"), JSON.stringify(models));
      const resolved = await resolveSummaryModel({ agentDir: dir, model: "p15/m", piVersion: "1.5" });
      expect(resolved.apiKey).toBe(KEY);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
