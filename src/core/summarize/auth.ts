// The key and headers for a model's requests, in pi's order
// (ModelRegistry.getApiKeyAndHeaders + AuthStorage.getApiKey):
// 1. auth.json: an "api_key" entry (its key read as env-var name / literal /
//    !command), or an "oauth" entry (refreshed when expired);
// 2. without an auth.json entry: the provider's environment variable (pi-ai getEnvApiKey);
// 3. models.json's provider "apiKey".
// Headers: the built-in model's, then models.json provider headers, then
// per-model headers (values resolved like keys); "authHeader": true adds
// "Authorization: Bearer <key>". Errors name where to put a key, never a key.
// One difference: an auth.json "!command" key that fails is an error here;
// pi silently moves on to models.json's apiKey (often a literal placeholder).

import type { AuthData } from "./auth-json.js";
import { authJsonPath, credentialFor, readAuthJson } from "./auth-json.js";
import { resolveConfigValue } from "./config-value.js";
import type { FileLockOptions } from "./file-lock.js";
import { ModelConfigError } from "./model-config-error.js";
import { modelLabel } from "./model-reference.js";
import type { ModelRegistry, SummaryModel } from "./model-registry.js";
import { oauthApiKey } from "./oauth.js";
import type { OAuthProviderLookup } from "./oauth.js";
import { loadPiAi } from "./pi-ai-loader.js";
import { providerEnvVars, providerOtherAuth } from "./provider-env-vars.js";

export type KeySource = "runtime" | "auth.json" | "oauth" | "environment" | "models.json";

export interface RequestAuth {
  apiKey: string;
  headers?: Record<string, string>;
  keySource: KeySource;
}

export interface ResolveRequestAuthOptions {
  agentDir: string;
  registry: ModelRegistry;
  /** auth.json content when already read; read from agentDir otherwise. */
  authData?: AuthData;
  /**
   * Keys by provider that win over every file and variable, as pi's runtime
   * overrides (AuthStorage.setRuntimeApiKey, `--api-key`) do; e.g. keys kept in
   * VS Code's SecretStorage. Never written anywhere.
   */
  runtimeApiKeys?: Readonly<Record<string, string>>;
  /** Run "!command" values (pi does); default true. */
  allowCommands?: boolean;
  /** OAuth providers (default: pi-ai's). Tests inject one: no real provider is reachable offline. */
  oauthProviders?: OAuthProviderLookup;
  now?: () => number;
  lock?: FileLockOptions;
}

interface FoundKey {
  apiKey: string | undefined;
  keySource: KeySource;
}

async function keyFromAuthStorage(provider: string, authData: AuthData, options: ResolveRequestAuthOptions): Promise<FoundKey | undefined> {
  const authFile = authJsonPath(options.agentDir);
  const cred = credentialFor(authData, provider);
  if (cred?.type === "api_key") {
    const resolved = await resolveConfigValue(cred.key, { allowCommands: options.allowCommands });
    if (!resolved.ok) {
      const why = resolved.reason === "commands-disabled" ? "running commands is disabled here" : "the command failed or printed nothing";
      throw new ModelConfigError("key-command-failed", `The key for "${provider}" in ${authFile} is a !command and ${why}.`, { file: authFile });
    }
    return { apiKey: resolved.value, keySource: "auth.json" };
  }
  if (cred?.type === "oauth") {
    const apiKey = await oauthApiKey({
      authFile,
      provider,
      credential: cred,
      oauthProviders: options.oauthProviders,
      now: options.now,
      lock: options.lock,
    });
    return { apiKey, keySource: "oauth" };
  }
  const fromEnv = (await loadPiAi()).getEnvApiKey(provider);
  return fromEnv ? { apiKey: fromEnv, keySource: "environment" } : undefined;
}

async function resolveHeaderValues(
  headers: Record<string, string> | undefined,
  description: string,
  file: string,
  options: ResolveRequestAuthOptions,
): Promise<Record<string, string> | undefined> {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const [name, config] of Object.entries(headers)) {
    const resolved = await resolveConfigValue(config, { allowCommands: options.allowCommands });
    if (!resolved.ok) {
      throw new ModelConfigError("key-command-failed", `${file}: header "${name}" of ${description} is a !command that failed or printed nothing.`, {
        file,
      });
    }
    out[name] = resolved.value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

export function missingKeyMessage(provider: string, agentDir: string, registry: ModelRegistry): string {
  const authFile = authJsonPath(agentDir);
  const envVars = providerEnvVars(provider);
  const other = providerOtherAuth(provider);
  const entry = `{"${provider}": {"type": "api_key", "key": "<your key>"}}`;
  const ways: string[] = [];
  if (envVars.length > 0) ways.push(`set the environment variable ${envVars.join(" or ")}`);
  if (other) ways.push(`configure ${other}`);
  ways.push(`add ${entry} to ${authFile}`);
  if (envVars.length === 0) ways.push(`give the provider an "apiKey" in ${registry.modelsJsonFile}`);
  return `No API key for provider "${provider}". To use it, ${ways.join(", or ")}.`;
}

export async function resolveRequestAuth(model: SummaryModel, options: ResolveRequestAuthOptions): Promise<RequestAuth> {
  const { registry } = options;
  const authData = options.authData ?? (await readAuthJson(authJsonPath(options.agentDir)));
  const providerConfig = registry.providerRequestConfig(model.provider);
  const modelsFile = registry.modelsJsonFile;

  const runtimeKey = options.runtimeApiKeys?.[model.provider];
  let found: FoundKey | undefined = runtimeKey ? { apiKey: runtimeKey, keySource: "runtime" } : await keyFromAuthStorage(model.provider, authData, options);
  if (found?.apiKey === undefined && providerConfig?.apiKey) {
    const resolved = await resolveConfigValue(providerConfig.apiKey, { allowCommands: options.allowCommands });
    if (!resolved.ok) {
      throw new ModelConfigError(
        "key-command-failed",
        `${modelsFile}: the "apiKey" of provider "${model.provider}" is a !command that ${resolved.reason === "commands-disabled" ? "may not run here" : "failed or printed nothing"}.`,
        { file: modelsFile },
      );
    }
    found = { apiKey: resolved.value, keySource: "models.json" };
  }

  const providerHeaders = await resolveHeaderValues(providerConfig?.headers, `provider "${model.provider}"`, modelsFile, options);
  const modelHeaders = await resolveHeaderValues(
    registry.modelRequestHeaders(model.provider, model.id),
    `model "${modelLabel(model)}"`,
    modelsFile,
    options,
  );
  let headers: Record<string, string> | undefined =
    model.headers || providerHeaders || modelHeaders ? { ...model.headers, ...providerHeaders, ...modelHeaders } : undefined;

  if (!found?.apiKey) {
    throw new ModelConfigError("missing-key", missingKeyMessage(model.provider, options.agentDir, registry), {
      file: authJsonPath(options.agentDir),
    });
  }
  if (providerConfig?.authHeader) headers = { ...headers, Authorization: `Bearer ${found.apiKey}` };
  return {
    apiKey: found.apiKey,
    headers: headers && Object.keys(headers).length > 0 ? headers : undefined,
    keySource: found.keySource,
  };
}
