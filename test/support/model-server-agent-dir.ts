// A temporary pi agent dir whose models.json points two custom providers at
// the loopback model server (one per wire protocol) and whose auth.json holds
// a test key for both, so real model resolution + real pi-ai + real HTTP can
// run offline.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ModelServer } from "./model-server.js";

export const LOOPBACK_OPENAI = "loopback-openai";
export const LOOPBACK_ANTHROPIC = "loopback-anthropic";
export const TEST_KEY = "sk-loopback-test-0123456789abcdef";

export interface LoopbackModelDef {
  id: string;
  reasoning?: boolean;
  contextWindow?: number;
  maxTokens?: number;
}

/** Models defined under both providers. */
export const LOOPBACK_MODELS: LoopbackModelDef[] = [
  { id: "summarizer", reasoning: false, contextWindow: 128000, maxTokens: 16384 },
  { id: "reasoner", reasoning: true, contextWindow: 200000, maxTokens: 32000 },
  { id: "small-output", reasoning: false, contextWindow: 32000, maxTokens: 1000 },
];

export interface LoopbackAgentDir {
  agentDir: string;
  key: string;
  modelsJson: unknown;
  authJson: unknown;
  cleanup(): Promise<void>;
}

export interface LoopbackAgentDirOptions {
  key?: string;
  models?: LoopbackModelDef[];
  /** false: write no auth.json. An object: written as is instead of the default. */
  authJson?: false | Record<string, unknown>;
  /** models.json "apiKey" of both providers (pi requires one for custom providers). */
  modelsJsonApiKey?: string;
  /** Extra providers merged into models.json. */
  extraProviders?: Record<string, unknown>;
  /** Extra files to write: name → content. */
  files?: Record<string, string>;
}

export async function writeLoopbackAgentDir(server: ModelServer, options: LoopbackAgentDirOptions = {}): Promise<LoopbackAgentDir> {
  const agentDir = await mkdtemp(join(tmpdir(), "pi-sessions-agent-"));
  const key = options.key ?? TEST_KEY;
  const models = (options.models ?? LOOPBACK_MODELS).map((m) => ({ name: m.id, input: ["text"], ...m }));
  const apiKey = options.modelsJsonApiKey ?? "PI_SESSIONS_LOOPBACK_UNSET_KEY_VAR";
  const modelsJson = {
    providers: {
      [LOOPBACK_OPENAI]: { baseUrl: server.openaiBaseUrl, api: "openai-completions", apiKey, models },
      [LOOPBACK_ANTHROPIC]: { baseUrl: server.anthropicBaseUrl, api: "anthropic-messages", apiKey, models },
      ...options.extraProviders,
    },
  };
  const authJson =
    options.authJson === false
      ? undefined
      : (options.authJson ?? {
          [LOOPBACK_OPENAI]: { type: "api_key", key },
          [LOOPBACK_ANTHROPIC]: { type: "api_key", key },
        });
  await writeFile(join(agentDir, "models.json"), JSON.stringify(modelsJson, null, 2));
  if (authJson !== undefined) await writeFile(join(agentDir, "auth.json"), JSON.stringify(authJson, null, 2), { mode: 0o600 });
  for (const [name, content] of Object.entries(options.files ?? {})) await writeFile(join(agentDir, name), content);
  return {
    agentDir,
    key,
    modelsJson,
    authJson,
    cleanup: () => rm(agentDir, { recursive: true, force: true }),
  };
}
