// omp's models.yml for an omp session: its providers and models join the
// registry (read with omp 18.3.4's rules: YAML, models.yml → models.yaml →
// models.json, omp's validateProviderConfiguration), its keys are found in
// omp's order (runtime, the models.yml apiKey — an environment variable's
// name, the key, or !command —, then pi's auth.json (omp's agent.db is not
// given here: omp-logins.test.ts), then the provider's variable; `auth: none` sends "N/A"), it wins over pi's
// models.json for a provider both define; a broken file is an error naming
// the file and line; a missing key says every way that works here.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { resolveRequestAuth } from "../../../src/core/summarize/auth.js";
import { ModelConfigError } from "../../../src/core/summarize/model-config-error.js";
import { requireModel } from "../../../src/core/summarize/model-reference.js";
import { loadModelSetup } from "../../../src/core/summarize/model-setup.js";
import { ompModelsFile, readOmpModelsYml } from "../../../src/core/summarize/omp-models-yml.js";

let piDir: string;
let ompDir: string;

const MODELS_YML = `# omp's own providers
providers:
  loopback:
    baseUrl: http://127.0.0.1:9/v1
    apiKey: OMP_TEST_LOOPBACK_KEY   # the name of a variable, as omp reads it
    api: openai-completions
    headers:
      X-Team: OMP_TEST_TEAM
      X-Static: static-value
    models:
      - id: loopback-coder
        name: Loopback coder
        reasoning: false
        input: [text]
        contextWindow: 64000
        maxTokens: 4096
  literal:
    baseUrl: http://127.0.0.1:10/v1
    apiKey: sk-literal-in-models-yml
    api: openai-completions
    authHeader: true
    models:
      - id: m
  command:
    baseUrl: http://127.0.0.1:11/v1
    apiKey: "!printf cmd-key-from-models-yml"
    api: anthropic-messages
    models:
      - id: m
  keyless:
    baseUrl: http://127.0.0.1:12/v1
    auth: none
    api: openai-completions
    models:
      - id: local
  nokey:
    baseUrl: http://127.0.0.1:13/v1
    auth: oauth
    api: openai-completions
    models:
      - id: m
`;

const ENV_VARS = ["OMP_TEST_LOOPBACK_KEY", "OMP_TEST_TEAM", "OPENAI_API_KEY"];

beforeEach(async () => {
  piDir = await mkdtemp(join(tmpdir(), "pi-sessions-omp-models-pi-"));
  ompDir = await mkdtemp(join(tmpdir(), "pi-sessions-omp-models-omp-"));
  for (const name of ENV_VARS) vi.stubEnv(name, "");
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(piDir, { recursive: true, force: true });
  await rm(ompDir, { recursive: true, force: true });
});

async function setup(options: { runtimeApiKeys?: Record<string, string>; omp?: boolean } = {}) {
  return loadModelSetup({ agentDir: piDir, ...(options.omp === false ? {} : { ompAgentDir: ompDir }), ...(options.runtimeApiKeys ? { runtimeApiKeys: options.runtimeApiKeys } : {}) });
}

async function authFor(label: string, options: Parameters<typeof setup>[0] = {}) {
  const s = await setup(options);
  return resolveRequestAuth(requireModel(s.registry, label), s);
}

async function failureOf(promise: Promise<unknown>): Promise<ModelConfigError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ModelConfigError);
  return error as ModelConfigError;
}

describe("an omp session's models.yml", () => {
  it("its provider's model is found with its limits, and its key read from the variable apiKey names (no pi models.json at all)", async () => {
    await writeFile(join(ompDir, "models.yml"), MODELS_YML);
    vi.stubEnv("OMP_TEST_LOOPBACK_KEY", "sk-from-the-environment");
    vi.stubEnv("OMP_TEST_TEAM", "team-7");
    const s = await setup();
    const model = requireModel(s.registry, "loopback/loopback-coder");
    expect(model).toMatchObject({ provider: "loopback", id: "loopback-coder", name: "Loopback coder", api: "openai-completions", baseUrl: "http://127.0.0.1:9/v1", contextWindow: 64000, maxTokens: 4096, reasoning: false, input: ["text"] });
    expect(s.registry.hasModelsJson).toBe(false);
    expect(s.registry.ompModelsFile).toBe(join(ompDir, "models.yml"));
    const auth = await resolveRequestAuth(model, s);
    expect(auth).toEqual({ apiKey: "sk-from-the-environment", keySource: "models.yml", headers: { "X-Team": "team-7", "X-Static": "static-value" } });
  });

  it("apiKey as omp reads it: an unset variable's name is the key itself; !command runs; authHeader adds the bearer; auth: none sends N/A", async () => {
    await writeFile(join(ompDir, "models.yml"), MODELS_YML);
    expect((await authFor("loopback/loopback-coder")).apiKey).toBe("OMP_TEST_LOOPBACK_KEY");
    expect(await authFor("literal/m")).toEqual({ apiKey: "sk-literal-in-models-yml", keySource: "models.yml", headers: { Authorization: "Bearer sk-literal-in-models-yml" } });
    expect(await authFor("command/m")).toMatchObject({ apiKey: "cmd-key-from-models-yml", keySource: "models.yml" });
    expect(await authFor("keyless/local")).toMatchObject({ apiKey: "N/A", keySource: "none" });
  });

  it("omp's order: a runtime key (VS Code's Set API Key…) first, then the models.yml apiKey over pi's auth.json; auth.json where models.yml has none", async () => {
    await writeFile(join(ompDir, "models.yml"), MODELS_YML);
    await writeFile(join(piDir, "auth.json"), JSON.stringify({ literal: { type: "api_key", key: "sk-auth-json" }, nokey: { type: "api_key", key: "sk-auth-json-nokey" } }));
    expect(await authFor("literal/m", { runtimeApiKeys: { literal: "sk-runtime" } })).toMatchObject({ apiKey: "sk-runtime", keySource: "runtime" });
    expect(await authFor("literal/m")).toMatchObject({ apiKey: "sk-literal-in-models-yml", keySource: "models.yml" });
    expect(await authFor("nokey/m")).toMatchObject({ apiKey: "sk-auth-json-nokey", keySource: "auth.json" });
  });

  it("wins over pi's models.json for a provider both define; models.json's other providers stay known", async () => {
    await writeFile(join(ompDir, "models.yml"), MODELS_YML);
    const json = {
      providers: {
        loopback: { baseUrl: "http://pi.example/v1", api: "openai-completions", apiKey: "sk-pi", models: [{ id: "pi-only-model" }] },
        pionly: { baseUrl: "http://pi.example/v1", api: "openai-completions", apiKey: "sk-pi-only", models: [{ id: "m" }] },
      },
    };
    await writeFile(join(piDir, "models.json"), JSON.stringify(json));
    const s = await setup();
    expect(s.registry.find("loopback", "loopback-coder")?.baseUrl).toBe("http://127.0.0.1:9/v1");
    expect(s.registry.find("loopback", "pi-only-model")).toBeUndefined();
    expect(await resolveRequestAuth(requireModel(s.registry, "pionly/m"), s)).toMatchObject({ apiKey: "sk-pi-only", keySource: "models.json" });
    // A pi session does not read omp's file.
    const pi = await setup({ omp: false });
    expect(pi.registry.find("loopback", "pi-only-model")).toBeDefined();
    expect(pi.registry.find("literal", "m")).toBeUndefined();
  });

  it("a provider with no key: the error says every way that works here, names models.yml, and that omp's agent.db is not read", async () => {
    await writeFile(join(ompDir, "models.yml"), MODELS_YML);
    const error = await failureOf(authFor("nokey/m"));
    expect(error.code).toBe("missing-key");
    expect(error.message).toContain(`"apiKey" in ${join(ompDir, "models.yml")}`);
    expect(error.message).toContain("Pi Sessions: Set API Key…");
    expect(error.message).toContain(join(piDir, "auth.json"));
    expect(error.message).toContain("agent.db");
    expect(error.message.split("\n")).toHaveLength(1);
  });

  it("an unknown model lists omp's file among the places looked in", async () => {
    await writeFile(join(ompDir, "models.yml"), MODELS_YML);
    const s = await setup();
    const error = await failureOf(Promise.resolve().then(() => requireModel(s.registry, "loopback/nope")));
    expect(error.message).toContain(join(ompDir, "models.yml"));
  });

  it("models.yaml, else models.json, when there is no models.yml (as omp reads them)", async () => {
    expect(ompModelsFile(ompDir)).toBe(join(ompDir, "models.yml"));
    await writeFile(join(ompDir, "models.json"), JSON.stringify({ providers: { j: { baseUrl: "http://x/v1", apiKey: "k", api: "openai-completions", models: [{ id: "m" }] } } }));
    expect(ompModelsFile(ompDir)).toBe(join(ompDir, "models.json"));
    expect((await setup()).registry.find("j", "m")).toBeDefined();
    await writeFile(join(ompDir, "models.yaml"), "providers:\n  y:\n    baseUrl: http://y/v1\n    apiKey: k\n    api: openai-completions\n    models:\n      - id: m\n");
    expect(ompModelsFile(ompDir)).toBe(join(ompDir, "models.yaml"));
    expect((await setup()).registry.find("y", "m")).toBeDefined();
  });

  it("an empty file or one without providers is no providers", async () => {
    await writeFile(join(ompDir, "models.yml"), "");
    expect(readOmpModelsYml(join(ompDir, "models.yml"))?.providers).toEqual({});
    await writeFile(join(ompDir, "models.yml"), "# nothing yet\n");
    expect(readOmpModelsYml(join(ompDir, "models.yml"))?.providers).toEqual({});
  });

  it("broken YAML, a wrong type, or omp's rules broken: one line naming the file and the line", async () => {
    const file = join(ompDir, "models.yml");
    const cases: [string, RegExp][] = [
      ["providers:\n  a:\n    baseUrl: [http://x\n    apiKey: k\n", /models\.yml:\d+(:\d+)?: not valid YAML: /],
      ["providers:\n  a:\n    baseUrl: http://x/v1\n    apiKey: k\n    api: openai-completions\n    models:\n      - id: m\n        contextWindow: lots\n", /models\.yml:8: invalid models\.yml: providers\.a\.models\.0\.contextWindow: expected a number$/],
      ["providers:\n  a:\n    apiKey: k\n    api: openai-completions\n    models:\n      - id: m\n", /models\.yml:2: Provider a: "baseUrl" is required when defining custom models\.$/],
      ["providers:\n  a:\n    baseUrl: http://x/v1\n    api: openai-completions\n    models:\n      - id: m\n", /models\.yml:2: Provider a: "apiKey" is required when defining custom models unless auth is "none" or "oauth"\.$/],
      ["providers:\n  a:\n    baseUrl: http://x/v1\n    apiKey: k\n    models:\n      - id: m\n", /models\.yml:6: Provider a, model m: no "api" specified\. Set at provider or model level\.$/],
      ["providers:\n  a:\n    baseUrl: http://x/v1\n    apiKey: k\n    api: carrier-pigeon\n", /models\.yml:5: invalid models\.yml: providers\.a\.api: expected one of /],
    ];
    for (const [text, expected] of cases) {
      await writeFile(file, text);
      const error = await failureOf(setup());
      expect(error.message).toMatch(expected);
      expect(error.message.startsWith(file)).toBe(true);
      expect(error.message.split("\n")).toHaveLength(1);
    }
  });
});
