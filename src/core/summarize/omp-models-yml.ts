// oh-my-pi's own model config, `<omp agent dir>/models.yml`, read as omp
// 18.3.4 reads it (ModelsConfigFile, model-registry.ts): `models.yml`, else
// `models.yaml`, else `models.json` (which omp converts to models.yml on its
// next run); YAML 1.2 (Bun's parser there, `yaml` here); the fields of omp's
// ModelsConfigSchema that a summary needs, type-checked, then omp's
// validateProviderConfiguration rules. Fields we do not use (`thinking`,
// `discovery`, `remoteCompaction`, `transport`, …) are accepted and ignored.
// omp ignores a broken file (built-in models only); here it is an error that
// names the file and line, as a broken models.json is.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node } from "yaml";
import { isNodeError, isPlainObject } from "./json-config.js";
import { ModelConfigError } from "./model-config-error.js";
import type { ModelDefinition, ModelOverride, ModelsConfig, ProviderConfig } from "./models-json.js";

/** omp's provider `auth`: "none" needs no key (omp sends "N/A"); "oauth" is a login in omp's agent.db. */
export type OmpProviderAuth = "apiKey" | "none" | "oauth";

export interface OmpModelsConfig extends ModelsConfig {
  /** Providers with `auth: none`. */
  keyless: ReadonlySet<string>;
}

/** The file omp reads: models.yml, else models.yaml, else models.json; models.yml when none exists. */
export function ompModelsFile(ompAgentDir: string): string {
  const yml = join(ompAgentDir, "models.yml");
  for (const candidate of [yml, join(ompAgentDir, "models.yaml"), join(ompAgentDir, "models.json")]) {
    if (existsSync(candidate)) return candidate;
  }
  return yml;
}

interface Problem {
  path: string[];
  message: string;
}

/** 1-based line of the key (or list item) at `path`, else of the nearest parent that exists. */
function lineOf(doc: Document, text: string, path: readonly string[]): number {
  const line = (offset: number): number => text.slice(0, offset).split("\n").length;
  for (let depth = path.length; depth > 0; depth--) {
    const parent = doc.getIn(path.slice(0, depth - 1), true);
    const name = path[depth - 1];
    if (isMap(parent)) {
      const pair = parent.items.find((p) => isScalar(p.key) && String(p.key.value) === name);
      const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (offset !== undefined) return line(offset);
    } else if (isSeq(parent)) {
      const item = parent.items[Number(name)] as Node | undefined;
      const offset = item && typeof item === "object" && "range" in item ? item.range?.[0] : undefined;
      if (offset !== undefined) return line(offset);
    }
  }
  return 1;
}

const APIS = [
  "openai-completions",
  "openai-responses",
  "openai-codex-responses",
  "azure-openai-responses",
  "anthropic-messages",
  "bedrock-converse-stream",
  "google-generative-ai",
  "google-gemini-cli",
  "google-vertex",
  "openrouter-decisions",
  "typesafe",
];

class Checker {
  readonly problems: Problem[] = [];

  add(path: string[], message: string): void {
    this.problems.push({ path, message });
  }

  string(value: unknown, path: string[]): void {
    if (value === undefined) return;
    if (typeof value !== "string") this.add(path, "expected a string");
    else if (value.length === 0) this.add(path, "expected a non-empty string");
  }

  boolean(value: unknown, path: string[]): void {
    if (value !== undefined && typeof value !== "boolean") this.add(path, "expected true or false");
  }

  number(value: unknown, path: string[]): void {
    if (value !== undefined && (typeof value !== "number" || !Number.isFinite(value))) this.add(path, "expected a number");
  }

  api(value: unknown, path: string[]): void {
    if (value !== undefined && (typeof value !== "string" || !APIS.includes(value))) this.add(path, `expected one of ${APIS.join(", ")}`);
  }

  stringRecord(value: unknown, path: string[]): void {
    if (value === undefined) return;
    if (!isPlainObject(value)) return this.add(path, "expected a mapping of strings");
    for (const [key, v] of Object.entries(value)) if (typeof v !== "string") this.add([...path, key], "expected a string");
  }

  object(value: unknown, path: string[]): void {
    if (value !== undefined && !isPlainObject(value)) this.add(path, "expected a mapping");
  }

  model(model: Record<string, unknown>, path: string[], override: boolean): void {
    this.string(model.name, [...path, "name"]);
    this.boolean(model.reasoning, [...path, "reasoning"]);
    if (model.input !== undefined && (!Array.isArray(model.input) || model.input.some((v) => v !== "text" && v !== "image"))) {
      this.add([...path, "input"], 'expected a list of "text" / "image"');
    }
    if (model.cost !== undefined) {
      if (!isPlainObject(model.cost)) this.add([...path, "cost"], "expected a mapping");
      else
        for (const field of ["input", "output", "cacheRead", "cacheWrite"]) {
          if (!override && model.cost[field] === undefined) this.add([...path, "cost", field], "required");
          this.number(model.cost[field], [...path, "cost", field]);
        }
    }
    this.number(model.contextWindow, [...path, "contextWindow"]);
    this.number(model.maxTokens, [...path, "maxTokens"]);
    this.stringRecord(model.headers, [...path, "headers"]);
    this.object(model.compat, [...path, "compat"]);
  }
}

function checkSchema(raw: unknown): Problem[] {
  const c = new Checker();
  if (raw === null || raw === undefined) return c.problems;
  if (!isPlainObject(raw)) {
    c.add([], "expected a mapping at the top");
    return c.problems;
  }
  if (raw.providers === undefined || raw.providers === null) return c.problems;
  if (!isPlainObject(raw.providers)) {
    c.add(["providers"], "expected a mapping of providers");
    return c.problems;
  }
  for (const [name, provider] of Object.entries(raw.providers)) {
    const path = ["providers", name];
    if (!isPlainObject(provider)) {
      c.add(path, "expected a mapping");
      continue;
    }
    c.string(provider.baseUrl, [...path, "baseUrl"]);
    c.string(provider.apiKey, [...path, "apiKey"]);
    c.api(provider.api, [...path, "api"]);
    c.stringRecord(provider.headers, [...path, "headers"]);
    c.object(provider.compat, [...path, "compat"]);
    c.boolean(provider.authHeader, [...path, "authHeader"]);
    if (provider.auth !== undefined && provider.auth !== "apiKey" && provider.auth !== "none" && provider.auth !== "oauth") {
      c.add([...path, "auth"], "expected apiKey, none or oauth");
    }
    if (provider.models !== undefined) {
      if (!Array.isArray(provider.models)) c.add([...path, "models"], "expected a list");
      else
        provider.models.forEach((model: unknown, i: number) => {
          const modelPath = [...path, "models", String(i)];
          if (!isPlainObject(model)) return c.add(modelPath, "expected a mapping");
          if (typeof model.id !== "string" || model.id.length === 0) c.add([...modelPath, "id"], "required, a non-empty string");
          c.api(model.api, [...modelPath, "api"]);
          c.string(model.baseUrl, [...modelPath, "baseUrl"]);
          c.model(model, modelPath, false);
        });
    }
    if (provider.modelOverrides !== undefined) {
      if (!isPlainObject(provider.modelOverrides)) c.add([...path, "modelOverrides"], "expected a mapping");
      else
        for (const [id, override] of Object.entries(provider.modelOverrides)) {
          if (!isPlainObject(override)) c.add([...path, "modelOverrides", id], "expected a mapping");
          else c.model(override, [...path, "modelOverrides", id], true);
        }
    }
  }
  return c.problems;
}

/** omp's validateProviderConfiguration("models-config"), on a schema-checked provider. */
function checkRules(name: string, provider: Record<string, unknown>): Problem | undefined {
  const path = ["providers", name];
  const models = (provider.models as Record<string, unknown>[] | undefined) ?? [];
  const auth = (provider.auth as OmpProviderAuth | undefined) ?? "apiKey";
  if (models.length > 0) {
    if (!provider.baseUrl) return { path, message: `Provider ${name}: "baseUrl" is required when defining custom models.` };
    if (!provider.apiKey && auth === "apiKey") return { path, message: `Provider ${name}: "apiKey" is required when defining custom models unless auth is "none" or "oauth".` };
  }
  for (const [i, model] of models.entries()) {
    const at = [...path, "models", String(i)];
    if (!provider.api && !model.api) return { path: at, message: `Provider ${name}, model ${String(model.id)}: no "api" specified. Set at provider or model level.` };
    if (typeof model.contextWindow === "number" && model.contextWindow <= 0) return { path: [...at, "contextWindow"], message: `Provider ${name}, model ${String(model.id)}: invalid contextWindow` };
    if (typeof model.maxTokens === "number" && model.maxTokens <= 0) return { path: [...at, "maxTokens"], message: `Provider ${name}, model ${String(model.id)}: invalid maxTokens` };
  }
  return undefined;
}

function configError(file: string, line: number, message: string): ModelConfigError {
  return new ModelConfigError("invalid-config", `${file}:${line}: ${message}`, { file, line });
}

/** omp's models.yml (or .yaml / .json), checked; undefined when the file does not exist. */
export function readOmpModelsYml(file: string): OmpModelsConfig | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    if (isNodeError(error) && error.code === "ENOENT") return undefined;
    throw new ModelConfigError("unreadable-file", `${file}: cannot read (${isNodeError(error) && error.code ? error.code : "read error"})`, { file });
  }
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: false });
  const syntax = doc.errors[0];
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? 1;
    const column = syntax.linePos?.[0]?.col;
    const reason = syntax.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    throw new ModelConfigError("invalid-json", `${file}:${line}${column ? `:${column}` : ""}: not valid YAML: ${reason}`, { file, line, ...(column ? { column } : {}) });
  }
  const raw: unknown = doc.toJS();
  const problems = checkSchema(raw);
  const first = problems[0];
  if (first) {
    const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem${problems.length > 2 ? "s" : ""})` : "";
    throw configError(file, lineOf(doc, text, first.path), `invalid models.yml: ${first.path.join(".") || "root"}: ${first.message}${more}`);
  }
  const providers = (isPlainObject(raw) && isPlainObject(raw.providers) ? raw.providers : {}) as Record<string, Record<string, unknown>>;
  const keyless = new Set<string>();
  const out: Record<string, ProviderConfig> = {};
  for (const [name, provider] of Object.entries(providers)) {
    const broken = checkRules(name, provider);
    if (broken) throw configError(file, lineOf(doc, text, broken.path), broken.message);
    if (provider.auth === "none") keyless.add(name);
    out[name] = {
      baseUrl: provider.baseUrl as string | undefined,
      apiKey: provider.apiKey as string | undefined,
      api: provider.api as string | undefined,
      headers: provider.headers as Record<string, string> | undefined,
      compat: provider.compat as Record<string, unknown> | undefined,
      authHeader: provider.authHeader as boolean | undefined,
      models: provider.models as ModelDefinition[] | undefined,
      modelOverrides: provider.modelOverrides as Record<string, ModelOverride> | undefined,
    };
  }
  return { providers: out, keyless };
}
