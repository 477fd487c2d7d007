// Every model pi would know: pi-ai's built-in registry, with models.json's
// provider overrides (baseUrl, compat), per-model overrides and custom
// providers/models merged in the way pi's ModelRegistry does
// (pi-coding-agent core/model-registry.js), then OAuth providers' modifyModels
// for providers logged in through OAuth. For an omp session, omp's own
// models.yml (omp-models-yml.ts) is merged over models.json: a provider both
// define is models.yml's, whole, as omp would use it.

import type { Api, Model } from "@mariozechner/pi-ai";
import type { AuthData } from "./auth-json.js";
import { credentialFor } from "./auth-json.js";
import { checkModelsRules, modelsJsonPath, readModelsJson } from "./models-json.js";
import type { ModelOverride, ModelsConfig, ProviderConfig } from "./models-json.js";
import { ompModelsFile, readOmpModelsYml } from "./omp-models-yml.js";
import { loadPiAi, loadPiAiOAuth } from "./pi-ai-loader.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { piAiProviderId, userProviderId } from "./provider-ids.js";

export type SummaryModel = Model<Api>;

/** Which file defines a provider: pi's models.json, or omp's models.yml (read with omp's rules). */
export type ProviderConfigOrigin = "models.json" | "models.yml";

/** What models.json (or omp's models.yml) says about a provider's requests (values unresolved). */
export interface ProviderRequestConfig {
  apiKey?: string;
  headers?: Record<string, string>;
  authHeader?: boolean;
  origin: ProviderConfigOrigin;
  /** The file the provider is defined in. */
  file: string;
  /** omp's `auth: none`: no key needed. */
  keyless?: boolean;
}

export interface ModelRegistry {
  readonly models: readonly SummaryModel[];
  readonly modelsJsonFile: string;
  /** Whether models.json existed. */
  readonly hasModelsJson: boolean;
  /** omp's models.yml (or .yaml / .json) when it was read: an omp session's. */
  readonly ompModelsFile?: string;
  /** Where models are known from, in words: "pi-ai's built-in models or <models.json>…". */
  readonly sources: string;
  find(provider: string, id: string): SummaryModel | undefined;
  providerRequestConfig(provider: string): ProviderRequestConfig | undefined;
  modelRequestHeaders(provider: string, id: string): Record<string, string> | undefined;
}

export interface LoadModelRegistryOptions {
  agentDir: string;
  /** auth.json content, for OAuth providers that rewrite their models (e.g. GitHub Copilot's base URL). */
  authData?: AuthData;
  /** Provider ids as this pi names them (1.5: "azure"). Default "0.73". */
  piVersion?: PiVersion;
  /** omp's agent dir, for an omp session: its models.yml is merged over models.json. */
  ompAgentDir?: string;
}

type CompatRecord = Record<string, unknown>;

function mergeCompat(base: unknown, override: CompatRecord | undefined): unknown {
  if (!override) return base;
  const baseRecord = (typeof base === "object" && base !== null ? base : {}) as CompatRecord;
  const merged: CompatRecord = { ...baseRecord, ...override };
  for (const nested of ["openRouterRouting", "vercelGatewayRouting"]) {
    if (baseRecord[nested] !== undefined || override[nested] !== undefined) {
      merged[nested] = { ...(baseRecord[nested] as CompatRecord), ...(override[nested] as CompatRecord) };
    }
  }
  return merged;
}

function applyModelOverride(model: SummaryModel, override: ModelOverride): SummaryModel {
  const result: SummaryModel = { ...model };
  if (override.name !== undefined) result.name = override.name;
  if (override.reasoning !== undefined) result.reasoning = override.reasoning;
  if (override.thinkingLevelMap !== undefined) {
    result.thinkingLevelMap = { ...model.thinkingLevelMap, ...override.thinkingLevelMap } as SummaryModel["thinkingLevelMap"];
  }
  if (override.input !== undefined) result.input = override.input;
  if (override.contextWindow !== undefined) result.contextWindow = override.contextWindow;
  if (override.maxTokens !== undefined) result.maxTokens = override.maxTokens;
  if (override.cost) {
    result.cost = {
      input: override.cost.input ?? model.cost.input,
      output: override.cost.output ?? model.cost.output,
      cacheRead: override.cost.cacheRead ?? model.cost.cacheRead,
      cacheWrite: override.cost.cacheWrite ?? model.cost.cacheWrite,
    };
  }
  result.compat = mergeCompat(model.compat, override.compat) as SummaryModel["compat"];
  return result;
}

function customModels(config: ModelsConfig, builtInDefaults: (provider: string) => { api: Api; baseUrl: string } | undefined): SummaryModel[] {
  const models: SummaryModel[] = [];
  for (const [providerName, provider] of Object.entries(config.providers)) {
    const defs = provider.models ?? [];
    if (defs.length === 0) continue;
    const defaults = builtInDefaults(providerName);
    for (const def of defs) {
      const api = def.api ?? provider.api ?? defaults?.api;
      const baseUrl = def.baseUrl ?? provider.baseUrl ?? defaults?.baseUrl;
      if (!api || !baseUrl) continue;
      models.push({
        id: def.id,
        name: def.name ?? def.id,
        api,
        provider: providerName,
        baseUrl,
        reasoning: def.reasoning ?? false,
        thinkingLevelMap: def.thinkingLevelMap as SummaryModel["thinkingLevelMap"],
        input: def.input ?? ["text"],
        cost: def.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: def.contextWindow ?? 128000,
        maxTokens: def.maxTokens ?? 16384,
        headers: undefined,
        compat: mergeCompat(provider.compat, def.compat) as SummaryModel["compat"],
      });
    }
  }
  return models;
}

export async function loadModelRegistry(options: LoadModelRegistryOptions): Promise<ModelRegistry> {
  const file = modelsJsonPath(options.agentDir);
  const config = await readModelsJson(file);
  const piAi = await loadPiAi();
  const piVersion = options.piVersion ?? "0.73";
  const builtInProviders = new Set<string>(piAi.getProviders().map((p) => userProviderId(p, piVersion)));
  const piAiModels = (providerName: string): SummaryModel[] =>
    piAi.getModels(piAiProviderId(providerName, piVersion) as Parameters<typeof piAi.getModels>[0]).map((m) => ({ ...(m as SummaryModel), provider: providerName }));
  if (config) checkModelsRules(config, builtInProviders, file);
  const ompFile = options.ompAgentDir ? ompModelsFile(options.ompAgentDir) : undefined;
  const ompConfig = ompFile ? readOmpModelsYml(ompFile) : undefined;

  const requestConfigs = new Map<string, ProviderRequestConfig>();
  const modelHeaders = new Map<string, Record<string, string>>();
  const key = (provider: string, id: string): string => `${provider}:${id}`;
  const providers: Record<string, ProviderConfig> = { ...config?.providers, ...ompConfig?.providers };
  const merged: ModelsConfig | undefined = config || ompConfig ? { providers } : undefined;

  for (const [name, provider] of Object.entries(providers)) {
    const fromOmp = ompConfig?.providers[name] !== undefined;
    const keyless = ompConfig?.keyless.has(name) === true;
    if (provider.apiKey || provider.headers || provider.authHeader || fromOmp) {
      requestConfigs.set(name, {
        apiKey: provider.apiKey,
        headers: provider.headers,
        authHeader: provider.authHeader,
        origin: fromOmp ? "models.yml" : "models.json",
        file: fromOmp && ompFile ? ompFile : file,
        ...(keyless ? { keyless } : {}),
      });
    }
    for (const [id, override] of Object.entries(provider.modelOverrides ?? {})) {
      if (override.headers && Object.keys(override.headers).length > 0) modelHeaders.set(key(name, id), override.headers);
    }
    for (const def of provider.models ?? []) {
      if (def.headers && Object.keys(def.headers).length > 0) modelHeaders.set(key(name, def.id), def.headers);
      else modelHeaders.delete(key(name, def.id));
    }
  }

  const builtIn: SummaryModel[] = [...builtInProviders].flatMap((providerName) => {
    const provider = providers[providerName];
    return piAiModels(providerName).map((m) => {
      let model = m;
      if (provider && (provider.baseUrl || provider.compat)) {
        model = { ...model, baseUrl: provider.baseUrl ?? model.baseUrl, compat: mergeCompat(model.compat, provider.compat) as SummaryModel["compat"] };
      }
      const override = provider?.modelOverrides?.[m.id];
      return override ? applyModelOverride(model, override) : model;
    });
  });

  const builtInDefaults = (providerName: string): { api: Api; baseUrl: string } | undefined => {
    if (!builtInProviders.has(providerName)) return undefined;
    const original = piAiModels(providerName)[0];
    return original ? { api: original.api, baseUrl: original.baseUrl } : undefined;
  };

  let models = [...builtIn];
  for (const custom of merged ? customModels(merged, builtInDefaults) : []) {
    const at = models.findIndex((m) => m.provider === custom.provider && m.id === custom.id);
    if (at >= 0) models[at] = custom;
    else models.push(custom);
  }

  if (options.authData) {
    const oauth = await loadPiAiOAuth();
    for (const oauthProvider of oauth.getOAuthProviders()) {
      const cred = credentialFor(options.authData, oauthProvider.id);
      if (cred?.type === "oauth" && oauthProvider.modifyModels) {
        models = oauthProvider.modifyModels(models, cred);
      }
    }
  }

  const frozen = models;
  const files = [...(config ? [file] : []), ...(ompConfig && ompFile ? [ompFile] : [])];
  return {
    models: frozen,
    modelsJsonFile: file,
    hasModelsJson: config !== undefined,
    ...(ompConfig && ompFile ? { ompModelsFile: ompFile } : {}),
    sources: files.length === 0 ? "pi-ai's built-in models" : `pi-ai's built-in models${files.length > 1 ? `, ${files[0]}` : ""} or ${files.at(-1)}`,
    find: (provider, id) => frozen.find((m) => m.provider === provider && m.id === id),
    providerRequestConfig: (provider) => requestConfigs.get(provider),
    modelRequestHeaders: (provider, id) => modelHeaders.get(key(provider, id)),
  };
}
