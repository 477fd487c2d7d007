// Keys and headers for a model's requests, against pi's own
// ModelRegistry.getApiKeyAndHeaders on the same models.json/auth.json and
// environment (the oracle), plus what pi leaves to its caller: the message for
// a missing key.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthStorage, ModelRegistry as PiModelRegistry } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveRequestAuth } from "../../../src/core/summarize/auth.js";
import type { RequestAuth } from "../../../src/core/summarize/auth.js";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { loadModelSetup } from "../../../src/core/summarize/model-setup.js";

let agentDir: string;

const MODELS_JSON = {
  providers: {
    local: {
      baseUrl: "http://localhost:11434/v1",
      api: "openai-completions",
      apiKey: "LOCAL_KEY_VAR",
      headers: { "X-Team": "TEAM_HEADER_VAR", "X-Static": "static-value" },
      models: [{ id: "llama", headers: { "X-Model": "MODEL_HEADER_VAR" } }],
    },
    literal: { baseUrl: "http://localhost:1/v1", api: "openai-completions", apiKey: "literal-key-in-models-json", models: [{ id: "m" }] },
    command: { baseUrl: "http://localhost:2/v1", api: "openai-completions", apiKey: "!printf cmd-key-from-models-json", models: [{ id: "m" }] },
    bearer: { baseUrl: "http://localhost:3/v1", api: "openai-completions", apiKey: "bearer-literal", authHeader: true, models: [{ id: "m" }] },
  },
};

// Every variable these tests read, cleared so the machine's environment cannot leak in.
const ENV_VARS = ["LOCAL_KEY_VAR", "TEAM_HEADER_VAR", "MODEL_HEADER_VAR", "OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_OAUTH_TOKEN", "MY_AUTH_JSON_VAR"];

beforeEach(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "pi-sessions-auth-"));
  await writeFile(join(agentDir, "models.json"), JSON.stringify(MODELS_JSON));
  for (const name of ENV_VARS) vi.stubEnv(name, "");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(agentDir, { recursive: true, force: true });
});

async function writeAuth(data: Record<string, unknown>): Promise<void> {
  await writeFile(join(agentDir, "auth.json"), JSON.stringify(data), { mode: 0o600 });
}

async function ours(provider: string, id: string): Promise<RequestAuth> {
  const setup = await loadModelSetup({ agentDir });
  const model = setup.registry.find(provider, id);
  if (!model) throw new Error(`no ${provider}/${id}`);
  return resolveRequestAuth(model, setup);
}

async function pis(provider: string, id: string): Promise<{ apiKey?: string; headers?: Record<string, string> }> {
  const registry = PiModelRegistry.create(AuthStorage.create(join(agentDir, "auth.json")), join(agentDir, "models.json"));
  const model = registry.find(provider, id);
  if (!model) throw new Error(`pi: no ${provider}/${id}`);
  const result = await registry.getApiKeyAndHeaders(model);
  if (!result.ok) throw new Error(result.error);
  return { apiKey: result.apiKey, headers: result.headers };
}

async function expectSameAsPi(provider: string, id: string, expectedKey: string): Promise<RequestAuth> {
  const mine = await ours(provider, id);
  const theirs = await pis(provider, id);
  expect(mine.apiKey).toBe(expectedKey);
  expect({ apiKey: mine.apiKey, headers: mine.headers }).toEqual(theirs);
  return mine;
}

describe("resolveRequestAuth matches pi", () => {
  it("auth.json literal key wins over models.json and the environment", async () => {
    vi.stubEnv("LOCAL_KEY_VAR", "from-env-var");
    await writeAuth({ local: { type: "api_key", key: "literal-from-auth-json" } });
    const auth = await expectSameAsPi("local", "llama", "literal-from-auth-json");
    expect(auth.keySource).toBe("auth.json");
  });

  it("auth.json key naming an environment variable", async () => {
    vi.stubEnv("MY_AUTH_JSON_VAR", "value-of-my-var");
    await writeAuth({ local: { type: "api_key", key: "MY_AUTH_JSON_VAR" } });
    await expectSameAsPi("local", "llama", "value-of-my-var");
  });

  it("auth.json !command key", async () => {
    await writeAuth({ local: { type: "api_key", key: "!printf from-a-command" } });
    await expectSameAsPi("local", "llama", "from-a-command");
  });

  it("no auth.json entry: the provider's environment variable (built-in provider)", async () => {
    vi.stubEnv("OPENAI_API_KEY", "sk-openai-from-env");
    const auth = await expectSameAsPi("openai", "gpt-4o-mini", "sk-openai-from-env");
    expect(auth.keySource).toBe("environment");
  });

  it("no auth.json file: models.json apiKey as an environment variable's name", async () => {
    vi.stubEnv("LOCAL_KEY_VAR", "local-key-from-env");
    const auth = await expectSameAsPi("local", "llama", "local-key-from-env");
    expect(auth.keySource).toBe("models.json");
  });

  it("models.json apiKey naming an unset variable is used as a literal, as pi does", async () => {
    await expectSameAsPi("local", "llama", "LOCAL_KEY_VAR");
  });

  it("models.json literal and !command keys", async () => {
    await expectSameAsPi("literal", "m", "literal-key-in-models-json");
    await expectSameAsPi("command", "m", "cmd-key-from-models-json");
  });

  it("headers: provider then model headers, values resolved like keys", async () => {
    vi.stubEnv("TEAM_HEADER_VAR", "team-42");
    vi.stubEnv("MODEL_HEADER_VAR", "model-7");
    const auth = await expectSameAsPi("local", "llama", "LOCAL_KEY_VAR");
    expect(auth.headers).toEqual({ "X-Team": "team-42", "X-Static": "static-value", "X-Model": "model-7" });
  });

  it('"authHeader": true adds Authorization: Bearer <key>', async () => {
    const auth = await expectSameAsPi("bearer", "m", "bearer-literal");
    expect(auth.headers).toEqual({ Authorization: "Bearer bearer-literal" });
  });
});

describe("missing key", () => {
  it("names the provider, the environment variable and the auth.json to put it in", async () => {
    const error = await ours("anthropic", "claude-3-5-haiku-20241022").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelConfigError);
    const { code, message } = error as ModelConfigError;
    expect(code).toBe("missing-key");
    expect(message).toContain('"anthropic"');
    expect(message).toContain("ANTHROPIC_API_KEY");
    expect(message).toContain(join(agentDir, "auth.json"));
    // pi agrees there is no key (it reports it later, when the call is made).
    expect((await pis("anthropic", "claude-3-5-haiku-20241022")).apiKey).toBeUndefined();
  });

  it("a failing !command is an error naming the file, not a silent literal", async () => {
    await writeAuth({ local: { type: "api_key", key: "!exit 3" } });
    const error = await ours("local", "llama").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as ModelConfigError).code).toBe("key-command-failed");
    expect((error as ModelConfigError).message).toContain(join(agentDir, "auth.json"));
  });
});
