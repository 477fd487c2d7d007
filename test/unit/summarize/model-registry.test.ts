// Our model registry against pi's own ModelRegistry (the oracle) on the same
// models.json: built-in models, provider overrides, per-model overrides,
// custom providers and custom models of built-in providers must come out equal.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthStorage, ModelRegistry as PiModelRegistry } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { closeModelMatches, findModel, requireModel } from "../../../src/core/summarize/model-reference.js";
import { loadModelRegistry } from "../../../src/core/summarize/model-registry.js";

let agentDir: string;

beforeEach(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "pi-sessions-registry-"));
});

afterEach(async () => {
  await rm(agentDir, { recursive: true, force: true });
});

function piRegistry(): PiModelRegistry {
  return PiModelRegistry.create(AuthStorage.inMemory(), join(agentDir, "models.json"));
}

const MODELS_JSON = `{
  // pi accepts line comments and trailing commas here
  "providers": {
    "anthropic": {
      "baseUrl": "https://proxy.example/anthropic",
      "headers": { "X-Team": "TEAM_HEADER_VAR" },
      "modelOverrides": {
        "claude-3-5-haiku-20241022": { "maxTokens": 1234, "name": "Haiku via proxy", "cost": { "input": 9 } },
      },
    },
    "openai": { "models": [ { "id": "my-finetune", "contextWindow": 64000 } ] },
    "local": {
      "baseUrl": "http://localhost:11434/v1",
      "api": "openai-completions",
      "apiKey": "LOCAL_KEY_VAR",
      "compat": { "supportsDeveloperRole": false },
      "models": [
        { "id": "llama", "reasoning": true, "thinkingLevelMap": { "high": "max" } },
        { "id": "qwen", "headers": { "X-Model": "m" }, "compat": { "maxTokensField": "max_tokens" }, "maxTokens": 4096 },
        { "id": "other-api", "api": "anthropic-messages", "baseUrl": "http://localhost:9999" }
      ]
    },
    "openrouter": { "compat": { "openRouterRouting": { "only": ["x"] } } },
  },
}`;

describe("loadModelRegistry equals pi's ModelRegistry", () => {
  it("without models.json: pi-ai's built-in models", async () => {
    const ours = await loadModelRegistry({ agentDir });
    const pi = piRegistry();
    expect(pi.getError()).toBeUndefined();
    expect(ours.hasModelsJson).toBe(false);
    expect(ours.models).toEqual(pi.getAll());
  });

  it("with overrides, custom providers and custom models of a built-in provider", async () => {
    await writeFile(join(agentDir, "models.json"), MODELS_JSON);
    const ours = await loadModelRegistry({ agentDir });
    const pi = piRegistry();
    expect(pi.getError()).toBeUndefined();
    expect(ours.models.length).toBe(pi.getAll().length);
    expect(ours.models).toEqual(pi.getAll());
    // The cases the file sets up are really there (so equality is not vacuous).
    expect(ours.find("anthropic", "claude-3-5-haiku-20241022")).toMatchObject({
      baseUrl: "https://proxy.example/anthropic",
      maxTokens: 1234,
      name: "Haiku via proxy",
    });
    expect(ours.find("openai", "my-finetune")).toMatchObject({ api: "openai-responses", contextWindow: 64000, maxTokens: 16384 });
    expect(ours.find("local", "llama")).toMatchObject({ reasoning: true, contextWindow: 128000, compat: { supportsDeveloperRole: false } });
    expect(ours.find("local", "other-api")).toMatchObject({ api: "anthropic-messages", baseUrl: "http://localhost:9999" });
    expect(ours.providerRequestConfig("local")).toEqual({ apiKey: "LOCAL_KEY_VAR", headers: undefined, authHeader: undefined, origin: "models.json", file: join(agentDir, "models.json") });
    expect(ours.modelRequestHeaders("local", "qwen")).toEqual({ "X-Model": "m" });
  });
});

describe("OAuth providers that rewrite their models", () => {
  it("a GitHub Copilot login moves its models to the enterprise host, as in pi", async () => {
    const authData = {
      "github-copilot": { type: "oauth", refresh: "r", access: "tid=1;exp=2", expires: 9_999_999_999_999, enterpriseUrl: "ghe.example.com" },
    };
    await writeFile(join(agentDir, "auth.json"), JSON.stringify(authData));
    const ours = await loadModelRegistry({ agentDir, authData });
    const pi = PiModelRegistry.create(AuthStorage.create(join(agentDir, "auth.json")), join(agentDir, "models.json"));
    expect(ours.models).toEqual(pi.getAll());
    const copilot = ours.models.filter((m) => m.provider === "github-copilot");
    expect(copilot.length).toBeGreaterThan(0);
    expect(new Set(copilot.map((m) => m.baseUrl))).toEqual(new Set(["https://copilot-api.ghe.example.com"]));
  });
});

describe("broken models.json", () => {
  async function loadError(content: string): Promise<ModelConfigError> {
    await writeFile(join(agentDir, "models.json"), content);
    const error = await loadModelRegistry({ agentDir }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelConfigError);
    return error as ModelConfigError;
  }

  it("invalid JSON: names the file, line and column; pi rejects it too", async () => {
    const file = join(agentDir, "models.json");
    // Line 3 has a missing comma after the "api" value: the error is at the next property, line 4 column 7.
    const error = await loadError(`{\n  "providers": {\n    "x": { "api": "openai-completions"\n      "apiKey": "sk-literal-secret-123" } } }`);
    expect(error.code).toBe("invalid-json");
    expect(error.file).toBe(file);
    expect([error.line, error.column]).toEqual([4, 7]);
    expect(error.message.startsWith(`${file}:4:7: `)).toBe(true);
    expect(error.message).not.toContain("sk-literal-secret-123");
    expect(piRegistry().getError()).toMatch(/Failed to parse models.json/);
  });

  it("invalid JSON after a comment: positions count from the original text", async () => {
    const error = await loadError(`// my models\n{"providers": {"x": tru}}`);
    expect([error.line, error.column]).toEqual([2, 21]);
  });

  it("schema problem: names the field path; pi rejects it too", async () => {
    const error = await loadError(`{"providers": {"x": {"baseUrl": "http://h", "models": [{"name": "no id"}]}}}`);
    expect(error.code).toBe("invalid-config");
    expect(error.message).toContain("providers.x.models.0.id");
    expect(error.message).toContain(join(agentDir, "models.json"));
    expect(piRegistry().getError()).toMatch(/providers\.x\.models\.0\.id/);
  });

  it("pi's rules: a custom provider with models needs an apiKey (same sentence as pi)", async () => {
    const error = await loadError(`{"providers": {"x": {"baseUrl": "http://h", "api": "openai-completions", "models": [{"id": "m"}]}}}`);
    const sentence = `Provider x: "apiKey" is required when defining custom models.`;
    expect(error.message).toContain(sentence);
    expect(piRegistry().getError()).toContain(sentence);
  });
});

describe("model references", () => {
  it("finds provider/id exactly, case-insensitively, and a bare id only when unique", async () => {
    await writeFile(join(agentDir, "models.json"), MODELS_JSON);
    const registry = await loadModelRegistry({ agentDir });
    expect(findModel(registry, "local/llama")?.id).toBe("llama");
    expect(findModel(registry, "LOCAL/Llama")?.id).toBe("llama");
    expect(findModel(registry, "my-finetune")?.provider).toBe("openai");
    // gpt-4o exists under several providers: a bare id is ambiguous.
    const providersWithGpt4o = registry.models.filter((m) => m.id === "gpt-4o").length;
    expect(providersWithGpt4o).toBeGreaterThan(1);
    expect(findModel(registry, "gpt-4o")).toBeUndefined();
  });

  it("an unknown provider/id is an error listing close matches", async () => {
    const registry = await loadModelRegistry({ agentDir });
    let error: unknown;
    try {
      requireModel(registry, "anthropic/claude-3-5-haiku");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).code).toBe("unknown-model");
    expect((error as ModelConfigError).message).toContain("anthropic/claude-3-5-haiku-20241022");
    expect(closeModelMatches(registry.models, "openai/gpt-4o-mnii")).toContain("openai/gpt-4o-mini");
    expect(closeModelMatches(registry.models, "zzzzzzzzzzzz/qqqqqqqqqqqqqq")).toEqual([]);
  });
});
