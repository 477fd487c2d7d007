// <agent-dir>/models.json in pi's format (pi-coding-agent core/model-registry.js):
// the schema pi checks with typebox, then pi's validateConfig rules. Unknown
// fields are accepted, as typebox objects accept them.

import { join } from "node:path";
import { isPlainObject, readJsonConfigFile } from "./json-config.js";
import { ModelConfigError } from "./model-config-error.js";

export type InputKind = "text" | "image";
export type ThinkingLevelMap = Partial<Record<string, string | null>>;

export interface ModelCost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface ModelDefinition {
  id: string;
  name?: string;
  api?: string;
  baseUrl?: string;
  reasoning?: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  input?: InputKind[];
  cost?: ModelCost;
  contextWindow?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

export interface ModelOverride {
  name?: string;
  reasoning?: boolean;
  thinkingLevelMap?: ThinkingLevelMap;
  input?: InputKind[];
  cost?: Partial<ModelCost>;
  contextWindow?: number;
  maxTokens?: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
}

export interface ProviderConfig {
  name?: string;
  baseUrl?: string;
  apiKey?: string;
  api?: string;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
  authHeader?: boolean;
  models?: ModelDefinition[];
  modelOverrides?: Record<string, ModelOverride>;
}

export interface ModelsConfig {
  providers: Record<string, ProviderConfig>;
}

export function modelsJsonPath(agentDir: string): string {
  return join(agentDir, "models.json");
}

/** models.json parsed and schema-checked, or undefined when the file does not exist. */
export async function readModelsJson(file: string): Promise<ModelsConfig | undefined> {
  const raw = await readJsonConfigFile(file, { comments: true });
  if (raw === undefined) return undefined;
  return checkModelsSchema(raw, file);
}

type Problems = string[];

function checkString(value: unknown, path: string, problems: Problems): void {
  if (value !== undefined && (typeof value !== "string" || value.length === 0)) {
    problems.push(`${path}: expected a non-empty string`);
  }
}

function checkBoolean(value: unknown, path: string, problems: Problems): void {
  if (value !== undefined && typeof value !== "boolean") problems.push(`${path}: expected true or false`);
}

function checkNumber(value: unknown, path: string, problems: Problems): void {
  if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value))) {
    problems.push(`${path}: expected a number`);
  }
}

function checkStringRecord(value: unknown, path: string, problems: Problems): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    problems.push(`${path}: expected an object of strings`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (typeof v !== "string") problems.push(`${path}.${key}: expected a string`);
  }
}

function checkObject(value: unknown, path: string, problems: Problems): void {
  if (value !== undefined && !isPlainObject(value)) problems.push(`${path}: expected an object`);
}

function checkInput(value: unknown, path: string, problems: Problems): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.some((v) => v !== "text" && v !== "image")) {
    problems.push(`${path}: expected an array of "text" / "image"`);
  }
}

function checkThinkingLevelMap(value: unknown, path: string, problems: Problems): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    problems.push(`${path}: expected an object`);
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (v !== null && typeof v !== "string") problems.push(`${path}.${key}: expected a string or null`);
  }
}

function checkCost(value: unknown, path: string, problems: Problems, partial: boolean): void {
  if (value === undefined) return;
  if (!isPlainObject(value)) {
    problems.push(`${path}: expected an object`);
    return;
  }
  for (const field of ["input", "output", "cacheRead", "cacheWrite"]) {
    if (!partial && value[field] === undefined) problems.push(`${path}.${field}: required`);
    checkNumber(value[field], `${path}.${field}`, problems);
  }
}

function checkModelFields(model: Record<string, unknown>, path: string, problems: Problems, isOverride: boolean): void {
  checkString(model.name, `${path}.name`, problems);
  checkBoolean(model.reasoning, `${path}.reasoning`, problems);
  checkThinkingLevelMap(model.thinkingLevelMap, `${path}.thinkingLevelMap`, problems);
  checkInput(model.input, `${path}.input`, problems);
  checkCost(model.cost, `${path}.cost`, problems, isOverride);
  checkNumber(model.contextWindow, `${path}.contextWindow`, problems);
  checkNumber(model.maxTokens, `${path}.maxTokens`, problems);
  checkStringRecord(model.headers, `${path}.headers`, problems);
  checkObject(model.compat, `${path}.compat`, problems);
}

export function checkModelsSchema(raw: unknown, file: string): ModelsConfig {
  const problems: Problems = [];
  if (!isPlainObject(raw)) {
    problems.push("root: expected an object");
  } else if (!isPlainObject(raw.providers)) {
    problems.push("providers: required, an object");
  } else {
    for (const [name, provider] of Object.entries(raw.providers)) {
      const path = `providers.${name}`;
      if (!isPlainObject(provider)) {
        problems.push(`${path}: expected an object`);
        continue;
      }
      for (const field of ["name", "baseUrl", "apiKey", "api"]) checkString(provider[field], `${path}.${field}`, problems);
      checkStringRecord(provider.headers, `${path}.headers`, problems);
      checkObject(provider.compat, `${path}.compat`, problems);
      checkBoolean(provider.authHeader, `${path}.authHeader`, problems);
      if (provider.models !== undefined) {
        if (!Array.isArray(provider.models)) {
          problems.push(`${path}.models: expected an array`);
        } else {
          provider.models.forEach((model: unknown, i: number) => {
            const modelPath = `${path}.models.${i}`;
            if (!isPlainObject(model)) {
              problems.push(`${modelPath}: expected an object`);
              return;
            }
            if (typeof model.id !== "string" || model.id.length === 0) problems.push(`${modelPath}.id: required, a non-empty string`);
            checkString(model.api, `${modelPath}.api`, problems);
            checkString(model.baseUrl, `${modelPath}.baseUrl`, problems);
            checkModelFields(model, modelPath, problems, false);
          });
        }
      }
      if (provider.modelOverrides !== undefined) {
        if (!isPlainObject(provider.modelOverrides)) {
          problems.push(`${path}.modelOverrides: expected an object`);
        } else {
          for (const [id, override] of Object.entries(provider.modelOverrides)) {
            const overridePath = `${path}.modelOverrides.${id}`;
            if (!isPlainObject(override)) problems.push(`${overridePath}: expected an object`);
            else checkModelFields(override, overridePath, problems, true);
          }
        }
      }
    }
  }
  if (problems.length > 0) {
    throw new ModelConfigError("invalid-config", `${file}: invalid models.json:\n${problems.map((p) => `  - ${p}`).join("\n")}`, {
      file,
    });
  }
  return raw as unknown as ModelsConfig;
}

/** pi's validateConfig: rules that need to know which providers are built in. */
export function checkModelsRules(config: ModelsConfig, builtInProviders: ReadonlySet<string>, file: string): void {
  const fail = (message: string): never => {
    throw new ModelConfigError("invalid-config", `${file}: ${message}`, { file });
  };
  for (const [providerName, provider] of Object.entries(config.providers)) {
    const isBuiltIn = builtInProviders.has(providerName);
    const models = provider.models ?? [];
    const hasOverrides = provider.modelOverrides !== undefined && Object.keys(provider.modelOverrides).length > 0;
    if (models.length === 0) {
      if (!provider.baseUrl && !provider.headers && !provider.compat && !hasOverrides) {
        fail(`Provider ${providerName}: must specify "baseUrl", "headers", "compat", "modelOverrides", or "models".`);
      }
    } else if (!isBuiltIn) {
      if (!provider.baseUrl) fail(`Provider ${providerName}: "baseUrl" is required when defining custom models.`);
      if (!provider.apiKey) fail(`Provider ${providerName}: "apiKey" is required when defining custom models.`);
    }
    for (const model of models) {
      if (!provider.api && !model.api && !isBuiltIn) {
        fail(`Provider ${providerName}, model ${model.id}: no "api" specified. Set at provider or model level.`);
      }
      if (model.contextWindow !== undefined && model.contextWindow <= 0) {
        fail(`Provider ${providerName}, model ${model.id}: invalid contextWindow`);
      }
      if (model.maxTokens !== undefined && model.maxTokens <= 0) {
        fail(`Provider ${providerName}, model ${model.id}: invalid maxTokens`);
      }
    }
  }
}
