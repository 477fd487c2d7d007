// The key and headers for a model's requests, in the order of the user's pi.
// pi 0.73 (ModelRegistry.getApiKeyAndHeaders + AuthStorage.getApiKey):
// 1. auth.json: an "api_key" entry (its key: env-var name / literal /
//    !command), or an "oauth" entry (refreshed when expired);
// 2. without an auth.json entry: the provider's environment variable (pi-ai getEnvApiKey);
// 3. models.json's provider "apiKey".
// pi 1.5 (provider-composer.js composeApiKeyAuth): 1. auth.json as above
// (key and headers as `$NAME` templates, the entry's `env` map first; an
// entry without a usable key falls to the provider's own variable); 2.
// without an entry: models.json's "apiKey" (an unset `$NAME` there is an
// error); 3. the provider's environment variable.
// Both: runtime keys first. Headers: the built-in model's, then models.json
// provider headers, then per-model headers (values resolved like keys);
// "authHeader": true adds "Authorization: Bearer <key>". For an omp session
// the key is found in omp's order (AuthStorage keys.get): runtime keys, a
// models.yml provider's "apiKey" (omp's config override), omp's logins in
// its agent.db — a live OAuth token, then a /login key — (then pi's auth.json,
// which omp does not read, as a convenience), the provider's variable, any
// other key in agent.db; `auth: none` needs no key ("N/A", as omp sends).
// An expired OAuth token is not refreshed here (omp refreshes it on its next
// run). models.yml values (key, headers) are read with omp's rules. Errors
// name where to put a key, never a key. One difference: an auth.json "!command" key that
// fails is an error here; pi 0.73 silently moves on to models.json's apiKey.

import { credentialFor } from "./auth-json.js";
import { unresolvedReason, type ConfigValueResult } from "./config-value.js";
import { ModelConfigError } from "./model-config-error.js";
import { modelLabel } from "./model-reference.js";
import type { ModelRegistry, SummaryModel } from "./model-registry.js";
import type { ModelSetup } from "./model-setup.js";
import { oauthApiKey } from "./oauth.js";
import type { OmpCredentials } from "./omp-agent-db.js";
import { loadPiAi } from "./pi-ai-loader.js";
import { providerEnvVars, providerOtherAuth } from "./provider-env-vars.js";
import { piAiProviderId } from "./provider-ids.js";

export type KeySource = "runtime" | "auth.json" | "oauth" | "environment" | "models.json" | "models.yml" | "agent.db" | "none";

/** What omp sends for a provider with `auth: none`. */
const OMP_KEYLESS_KEY = "N/A";

export interface RequestAuth {
  apiKey: string;
  headers?: Record<string, string>;
  keySource: KeySource;
}

interface FoundKey {
  apiKey: string | undefined;
  keySource: KeySource;
}

type Unresolved = Extract<ConfigValueResult, { ok: false }>;

function unresolvedError(where: string, what: string, result: Unresolved, file: string): ModelConfigError {
  const code = result.reason === "unset-variable" ? "missing-key" : "key-command-failed";
  return new ModelConfigError(code, `${where}: ${what} ${unresolvedReason(result)}.`, { file });
}

/** The provider's own variable (pi-ai getEnvApiKey); 1.5 reads a credential's `env` map first. */
async function keyFromEnvironment(provider: string, setup: ModelSetup, credentialEnv?: Readonly<Record<string, string>>): Promise<FoundKey | undefined> {
  for (const name of providerEnvVars(provider)) {
    const value = credentialEnv?.[name];
    if (value) return { apiKey: value, keySource: "auth.json" };
  }
  const fromEnv = (await loadPiAi()).getEnvApiKey(piAiProviderId(provider, setup.piVersion));
  return fromEnv ? { apiKey: fromEnv, keySource: "environment" } : undefined;
}

async function keyFromAuthStorage(provider: string, setup: ModelSetup): Promise<FoundKey | undefined> {
  const cred = credentialFor(setup.authData, provider, setup.piVersion);
  if (cred?.type === "api_key") {
    if (cred.key !== undefined) {
      const resolved = await setup.resolveValue(cred.key, cred.env);
      if (resolved.ok) return { apiKey: resolved.value, keySource: "auth.json" };
      if (setup.piVersion === "0.73" || resolved.reason !== "unset-variable") {
        throw unresolvedError(setup.authFile, `the key for "${provider}"`, resolved, setup.authFile);
      }
    }
    // pi 1.5: an entry without a usable key lets a built-in provider find its own variable.
    return (await keyFromEnvironment(provider, setup, cred.env)) ?? { apiKey: undefined, keySource: "auth.json" };
  }
  if (cred?.type === "oauth") {
    const apiKey = await oauthApiKey({
      authFile: setup.authFile,
      provider,
      credential: cred,
      oauthProviders: setup.oauthProviders,
      now: setup.now,
      lock: setup.lock,
    });
    return { apiKey, keySource: "oauth" };
  }
  return undefined;
}

async function keyFromModelsJson(provider: string, setup: ModelSetup): Promise<FoundKey | undefined> {
  const config = setup.registry.providerRequestConfig(provider);
  if (!config?.apiKey) return undefined;
  const omp = config.origin === "models.yml";
  const resolved = omp ? await setup.resolveOmpValue(config.apiKey) : await setup.resolveValue(config.apiKey);
  if (!resolved.ok) throw unresolvedError(config.file, `the "apiKey" of provider "${provider}"`, resolved, config.file);
  return { apiKey: resolved.value, keySource: config.origin };
}

/**
 * A key from omp's logins: "oauth" a token that has not expired, "login" a key
 * `/login` stored, "other" any other stored key (omp reads it after the
 * provider's variable). A stored key is read as omp reads it (a variable's
 * name or `!command`, else the text).
 */
async function keyFromOmpLogins(provider: string, setup: ModelSetup, which: "oauth" | "login" | "other"): Promise<FoundKey | undefined> {
  for (const credential of setup.ompCredentials?.of(provider) ?? []) {
    if (which === "oauth") {
      if (credential.type === "oauth" && credential.access && credential.expires !== undefined && credential.expires > (setup.now?.() ?? Date.now())) {
        return { apiKey: credential.access, keySource: "agent.db" };
      }
      continue;
    }
    if (credential.type !== "api_key" || (which === "login") !== credential.login) continue;
    const resolved = await setup.resolveOmpValue(credential.key);
    return { apiKey: resolved.ok ? resolved.value : credential.key, keySource: "agent.db" };
  }
  return undefined;
}

async function findOmpKey(provider: string, setup: ModelSetup): Promise<FoundKey | undefined> {
  const config = setup.registry.providerRequestConfig(provider);
  const fromModelsYml = config?.origin === "models.yml";
  const found =
    (fromModelsYml ? await keyFromModelsJson(provider, setup) : undefined) ??
    (await keyFromOmpLogins(provider, setup, "oauth")) ??
    (await keyFromOmpLogins(provider, setup, "login")) ??
    (await keyFromAuthStorage(provider, setup));
  if (found?.apiKey !== undefined) return found;
  const other = (await keyFromEnvironment(provider, setup)) ?? (await keyFromOmpLogins(provider, setup, "other"));
  if (other) return other;
  if (fromModelsYml) return config.keyless ? { apiKey: OMP_KEYLESS_KEY, keySource: "none" } : found;
  return (await keyFromModelsJson(provider, setup)) ?? found;
}

async function findKey(provider: string, setup: ModelSetup): Promise<FoundKey | undefined> {
  const runtimeKey = setup.runtimeApiKeys?.[provider];
  if (runtimeKey) return { apiKey: runtimeKey, keySource: "runtime" };
  const config = setup.registry.providerRequestConfig(provider);
  if (setup.ompCredentials || config?.origin === "models.yml") return findOmpKey(provider, setup);
  const stored = await keyFromAuthStorage(provider, setup);
  if (setup.piVersion === "1.5") {
    if (stored) return stored;
    return (await keyFromModelsJson(provider, setup)) ?? (await keyFromEnvironment(provider, setup));
  }
  const found = stored ?? (await keyFromEnvironment(provider, setup));
  if (found?.apiKey !== undefined) return found;
  return (await keyFromModelsJson(provider, setup)) ?? found;
}

async function resolveHeaderValues(
  headers: Record<string, string> | undefined,
  description: string,
  setup: ModelSetup,
  credentialEnv: Readonly<Record<string, string>> | undefined,
  where: { origin: "models.json" | "models.yml"; file: string } = { origin: "models.json", file: setup.registry.modelsJsonFile },
): Promise<Record<string, string> | undefined> {
  if (!headers) return undefined;
  const file = where.file;
  const out: Record<string, string> = {};
  for (const [name, config] of Object.entries(headers)) {
    const resolved = where.origin === "models.yml" ? await setup.resolveOmpValue(config) : await setup.resolveValue(config, credentialEnv);
    if (!resolved.ok) throw unresolvedError(file, `header "${name}" of ${description}`, resolved, file);
    out[name] = resolved.value;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** What omp's logins could not give: an unreadable agent.db, or only an expired OAuth token. */
function ompLoginsNote(provider: string, logins: OmpCredentials | undefined): string {
  if (!logins) return " (omp's logins in its agent.db were not read)";
  if (logins.unread) return ` (omp's logins in ${logins.file} cannot be read: ${logins.unread})`;
  if (logins.of(provider).some((c) => c.type === "oauth")) return ` (omp's login for it in ${logins.file} has expired: running omp once refreshes it)`;
  return "";
}

export function missingKeyMessage(provider: string, authFile: string, registry: ModelRegistry, logins?: OmpCredentials): string {
  const envVars = providerEnvVars(provider);
  const other = providerOtherAuth(provider);
  const entry = `{"${provider}": {"type": "api_key", "key": "<your key>"}}`;
  const ways: string[] = [];
  const ompFile = registry.ompModelsFile;
  if (envVars.length > 0) ways.push(`set the environment variable ${envVars.join(" or ")}`);
  if (other) ways.push(`configure ${other}`);
  if (logins || ompFile) {
    ways.push(`log in with omp (/login)`);
    if (ompFile) ways.push(`give the provider an "apiKey" in ${ompFile} (the name of an environment variable that holds the key, the key itself, or !command)`);
    ways.push(`in VS Code, run "Pi Sessions: Set API Key…"`);
    ways.push(`add ${entry} to ${authFile}`);
    return `No API key for provider "${provider}"${ompLoginsNote(provider, logins)}. To use it, ${ways.join(", or ")}.`;
  }
  ways.push(`add ${entry} to ${authFile}`);
  if (envVars.length === 0) ways.push(`give the provider an "apiKey" in ${registry.modelsJsonFile}`);
  return `No API key for provider "${provider}". To use it, ${ways.join(", or ")}.`;
}

export async function resolveRequestAuth(model: SummaryModel, setup: ModelSetup): Promise<RequestAuth> {
  const { registry } = setup;
  const found = await findKey(model.provider, setup);
  const cred = credentialFor(setup.authData, model.provider, setup.piVersion);
  const credentialEnv = setup.piVersion === "1.5" && cred?.type === "api_key" ? cred.env : undefined;
  const providerConfig = registry.providerRequestConfig(model.provider);
  const where = providerConfig ? { origin: providerConfig.origin, file: providerConfig.file } : undefined;
  const providerHeaders = await resolveHeaderValues(providerConfig?.headers, `provider "${model.provider}"`, setup, credentialEnv, where);
  const modelHeaders = await resolveHeaderValues(registry.modelRequestHeaders(model.provider, model.id), `model "${modelLabel(model)}"`, setup, credentialEnv, where);
  let headers: Record<string, string> | undefined =
    model.headers || providerHeaders || modelHeaders ? { ...model.headers, ...providerHeaders, ...modelHeaders } : undefined;

  if (!found?.apiKey) {
    throw new ModelConfigError("missing-key", missingKeyMessage(model.provider, setup.authFile, registry, setup.ompCredentials), { file: setup.authFile });
  }
  if (providerConfig?.authHeader) headers = { ...headers, Authorization: `Bearer ${found.apiKey}` };
  return {
    apiKey: found.apiKey,
    headers: headers && Object.keys(headers).length > 0 ? headers : undefined,
    keySource: found.keySource,
  };
}
