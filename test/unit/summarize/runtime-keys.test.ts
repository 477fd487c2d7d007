// Runtime keys (the extension's SecretStorage keys) win over auth.json, the
// environment and models.json, exactly as pi's AuthStorage.setRuntimeApiKey
// overrides do (the oracle: pi's ModelRegistry.getApiKeyAndHeaders).

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuthStorage, ModelRegistry as PiModelRegistry } from "@mariozechner/pi-coding-agent";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveRequestAuth } from "../../../src/core/summarize/auth.js";
import { loadModelSetup } from "../../../src/core/summarize/model-setup.js";
import { resolveSummaryModel } from "../../../src/core/summarize/summary-model.js";
import { chooseSummarizer } from "../../../src/core/write/summarizer.js";

let agentDir: string;

const MODELS_JSON = {
  providers: {
    local: { baseUrl: "http://localhost:11434/v1", api: "openai-completions", apiKey: "models-json-key", authHeader: true, models: [{ id: "llama" }] },
    other: { baseUrl: "http://localhost:1/v1", api: "openai-completions", apiKey: "other-models-json-key", models: [{ id: "m" }] },
  },
};

beforeEach(async () => {
  agentDir = await mkdtemp(join(tmpdir(), "pi-sessions-runtime-keys-"));
  await writeFile(join(agentDir, "models.json"), JSON.stringify(MODELS_JSON));
  await writeFile(join(agentDir, "auth.json"), JSON.stringify({ local: { type: "api_key", key: "auth-json-key" } }), { mode: 0o600 });
  vi.stubEnv("OPENAI_API_KEY", "env-openai-key");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(agentDir, { recursive: true, force: true });
});

async function pis(provider: string, id: string, runtime: Record<string, string>): Promise<{ apiKey?: string; headers?: Record<string, string> }> {
  const storage = AuthStorage.create(join(agentDir, "auth.json"));
  for (const [name, key] of Object.entries(runtime)) storage.setRuntimeApiKey(name, key);
  const registry = PiModelRegistry.create(storage, join(agentDir, "models.json"));
  const model = registry.find(provider, id);
  if (!model) throw new Error(`pi: no ${provider}/${id}`);
  const result = await registry.getApiKeyAndHeaders(model);
  if (!result.ok) throw new Error(result.error);
  return { apiKey: result.apiKey, headers: result.headers };
}

async function ours(provider: string, id: string, runtime: Record<string, string>) {
  const setup = await loadModelSetup({ agentDir, runtimeApiKeys: runtime });
  const registry = setup.registry;
  const model = registry.find(provider, id)!;
  return resolveRequestAuth(model, setup);
}

describe("runtime keys match pi's runtime overrides", () => {
  it.each([
    ["over an auth.json key (and into the authHeader bearer)", "local", "llama"],
    ["over models.json's apiKey", "other", "m"],
    ["over the environment variable of a built-in provider", "openai", "gpt-4o-mini"],
  ])("%s", async (_name, provider, id) => {
    const runtime = { [provider]: `runtime-key-for-${provider}` };
    const mine = await ours(provider, id, runtime);
    const theirs = await pis(provider, id, runtime);
    expect(mine.apiKey).toBe(`runtime-key-for-${provider}`);
    expect(mine.keySource).toBe("runtime");
    expect({ apiKey: mine.apiKey, headers: mine.headers }).toEqual(theirs);
  });

  it("a runtime key for another provider changes nothing", async () => {
    const runtime = { other: "runtime-key-for-other" };
    const mine = await ours("local", "llama", runtime);
    expect(mine.apiKey).toBe("auth-json-key");
    expect(mine.keySource).toBe("auth.json");
    expect({ apiKey: mine.apiKey, headers: mine.headers }).toEqual(await pis("local", "llama", runtime));
  });

  it("resolveSummaryModel and chooseSummarizer pass runtime keys through", async () => {
    const runtime = { other: "runtime-key-for-other" };
    const resolved = await resolveSummaryModel({ agentDir, model: "other/m", runtimeApiKeys: runtime });
    expect([resolved.apiKey, resolved.keySource]).toEqual(["runtime-key-for-other", "runtime"]);
    const summarizer = await chooseSummarizer({ agentDir, pathEntries: [], choice: { model: "other/m", runtimeApiKeys: runtime }, warnings: [] });
    expect(summarizer.kind === "model" ? [summarizer.resolved.apiKey, summarizer.resolved.keySource] : summarizer.kind).toEqual(["runtime-key-for-other", "runtime"]);
  });
});
