// Where each agent's own files are, as a caller knows them: pi's agent dir
// (settings.json, models.json, auth.json) with the caller's values over pi's
// settings, omp's agent dir (config.yml, models.yml; default omp's own, from
// the environment). A face fills in what it knows (flags, settings); the
// session's semantics (`AgentSemantics.settingsFrom`, `modelDirs`) picks its
// agent's, so no caller tests which agent a session is.

import type { SettingsObject } from "../settings/deep-merge-settings.js";

export interface AgentConfig {
  /** The agent's dir; undefined: the agent's own default (omp's, from the environment). */
  agentDir?: string;
  /** Values over this agent's settings files (CLI flags; pi-sessions' VS Code settings are pi's). */
  overrides?: SettingsObject;
}

export interface AgentConfigs {
  pi: AgentConfig & { agentDir: string };
  omp?: AgentConfig;
}

/** Where the model registry of a session's agent is read: pi's models.json and auth.json, and for omp its models.yml. */
export interface ModelDirs {
  agentDir: string;
  /** omp's agent dir (its models.yml joins pi's registry). */
  ompAgentDir?: string;
}

/** The settings input for `config`'s files in `cwd` (only the keys given, as a caller writes them). */
export function settingsInput(agentDir: string, config: AgentConfig | undefined, cwd: string, trustProject: boolean | undefined) {
  return { agentDir, cwd, ...(trustProject !== undefined ? { trustProject } : {}), ...(config?.overrides ? { overrides: config.overrides } : {}) };
}
