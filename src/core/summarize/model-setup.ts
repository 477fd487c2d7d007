// The user's model setup, read once per run: pi-sessions.json, auth.json, the
// model registry (pi-ai's models with models.json merged), and the rules for
// reading config values — the syntax of the pi version the session is for.
// Everything that turns a model into a request (key, headers, OAuth) takes
// this one value instead of a bag of options passed from hand to hand.

import { existsSync } from "node:fs";
import type { PiVersion } from "../session/format/pi-version.js";
import { authJsonPath, readAuthJson, type AuthData } from "./auth-json.js";
import { resolveConfigValue, type ConfigValueResult } from "./config-value.js";
import type { FileLockOptions } from "./file-lock.js";
import { loadModelRegistry, type ModelRegistry } from "./model-registry.js";
import type { OAuthProviderLookup } from "./oauth.js";
import { nodeSqlite } from "../fs/index.js";
import { readOmpCredentials, type OmpCredentials } from "./omp-agent-db.js";
import { readPiSessionsConfig, type PiSessionsConfig } from "./pi-sessions-config.js";

export interface ModelSetupOptions {
  agentDir: string;
  /** Whose config syntax and provider ids apply. Default "0.73". */
  piVersion?: PiVersion;
  /**
   * omp's agent dir, for an omp session: its models.yml joins the registry,
   * its values read with omp's rules, its keys found in omp's order.
   */
  ompAgentDir?: string;
  /** omp's `agent.db`, for an omp session: the keys and OAuth tokens of omp's logins, found in omp's order. */
  ompAgentDb?: string;
  /** Run "!command" values (pi does); default true. */
  allowCommands?: boolean;
  /**
   * Keys by provider that win over every file and variable, as pi's runtime
   * overrides (`--api-key`) do; e.g. keys kept in VS Code's SecretStorage.
   * Never written anywhere.
   */
  runtimeApiKeys?: Readonly<Record<string, string>>;
  /** OAuth providers (default: pi-ai's). Tests inject one: no real provider is reachable offline. */
  oauthProviders?: OAuthProviderLookup;
  now?: () => number;
  lock?: FileLockOptions;
}

export interface ModelSetup extends Readonly<ModelSetupOptions> {
  readonly piVersion: PiVersion;
  readonly authFile: string;
  readonly authData: AuthData;
  readonly registry: ModelRegistry;
  readonly config: PiSessionsConfig;
  /** omp's logins (an omp session's `agent.db`); undefined for a pi session. */
  readonly ompCredentials?: OmpCredentials;
  /** A config value (apiKey, header value, auth key) read with this pi version's rules. */
  resolveValue(value: string, credentialEnv?: Readonly<Record<string, string>>): Promise<ConfigValueResult>;
  /**
   * A models.yml value read with omp's rules (its resolveConfigValue: `!command`,
   * else the environment variable of that name when set, else the text) — pi 0.73's.
   */
  resolveOmpValue(value: string): Promise<ConfigValueResult>;
}

export async function loadModelSetup(options: ModelSetupOptions): Promise<ModelSetup> {
  const piVersion = options.piVersion ?? "0.73";
  const config = await readPiSessionsConfig(options.agentDir);
  const authFile = authJsonPath(options.agentDir);
  const authData = await readAuthJson(authFile);
  const registry = await loadModelRegistry({ agentDir: options.agentDir, authData, piVersion, ...(options.ompAgentDir ? { ompAgentDir: options.ompAgentDir } : {}) });
  return {
    ...options,
    piVersion,
    authFile,
    authData,
    registry,
    config,
    ...(options.ompAgentDb ? { ompCredentials: readOmpCredentials(options.ompAgentDb, { sqlite: nodeSqlite(), exists: existsSync }) } : {}),
    resolveValue: (value, credentialEnv) => resolveConfigValue(value, { syntax: piVersion, credentialEnv, allowCommands: options.allowCommands }),
    resolveOmpValue: (value) => resolveConfigValue(value, { syntax: "0.73", allowCommands: options.allowCommands }),
  };
}
