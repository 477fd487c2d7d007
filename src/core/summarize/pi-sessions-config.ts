// <agent-dir>/pi-sessions.json: our own settings beside pi's files.
// { "presets": {NAME: {"model": "provider/id", "thinkingLevel"?: "off"|…|"xhigh"}},
//   "defaultPreset"?: NAME, "compactionPromptFile"?: path, "branchSummaryPromptFile"?: path,
//   "filesTouched"?: {"compaction"?: boolean, "branchSummary"?: boolean} }
// `//` comments and trailing commas are accepted as in models.json. Prompt
// file paths are relative to the agent dir unless absolute (or "~/…").

import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { isPlainObject, readJsonConfigFile } from "./json-config.js";
import { ModelConfigError } from "./model-config-error.js";
import { isThinkingLevel, THINKING_LEVELS } from "./thinking-level.js";
import type { ThinkingLevel } from "./thinking-level.js";

export interface SummaryPreset {
  /** "provider/id" (a bare id works when only one provider has it). */
  model: string;
  thinkingLevel?: ThinkingLevel;
}

export type PresetTable = Record<string, SummaryPreset>;

export interface PiSessionsConfig {
  file: string;
  exists: boolean;
  presets: PresetTable;
  defaultPreset?: string;
  /** Absolute paths. */
  compactionPromptFile?: string;
  branchSummaryPromptFile?: string;
  /** Whether the files-touched block is appended, per summary kind (default: both). */
  filesTouched?: { compaction?: boolean; branchSummary?: boolean };
}

export function piSessionsConfigPath(agentDir: string): string {
  return join(agentDir, "pi-sessions.json");
}

/** Checks a presets object (from the file or from VS Code settings); `where` names the source in errors. */
export function checkPresets(raw: unknown, where: string): PresetTable {
  if (raw === undefined) return {};
  const fail = (message: string): never => {
    throw new ModelConfigError("invalid-config", `${where}: ${message}`, { file: where });
  };
  if (!isPlainObject(raw)) return fail(`"presets" must be an object of {"model": "provider/id", "thinkingLevel"?}`);
  const presets: PresetTable = {};
  for (const [name, value] of Object.entries(raw)) {
    if (!isPlainObject(value)) fail(`preset "${name}" must be an object`);
    const preset = value as Record<string, unknown>;
    if (typeof preset.model !== "string" || preset.model.trim() === "") fail(`preset "${name}" needs "model": "provider/id"`);
    if (preset.thinkingLevel !== undefined && !isThinkingLevel(preset.thinkingLevel)) {
      fail(`preset "${name}": "thinkingLevel" must be one of ${THINKING_LEVELS.join(", ")}`);
    }
    presets[name] = {
      model: (preset.model as string).trim(),
      ...(preset.thinkingLevel !== undefined ? { thinkingLevel: preset.thinkingLevel as ThinkingLevel } : {}),
    };
  }
  return presets;
}

function resolvePromptPath(agentDir: string, value: unknown, field: string, file: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.trim() === "") {
    throw new ModelConfigError("invalid-config", `${file}: "${field}" must be a path`, { file });
  }
  const path = value.trim();
  if (path === "~" || path.startsWith("~/")) return join(homedir(), path.slice(1));
  return isAbsolute(path) ? path : resolve(agentDir, path);
}

export async function readPiSessionsConfig(agentDir: string): Promise<PiSessionsConfig> {
  const file = piSessionsConfigPath(agentDir);
  const raw = await readJsonConfigFile(file, { comments: true });
  if (raw === undefined) return { file, exists: false, presets: {} };
  if (!isPlainObject(raw)) throw new ModelConfigError("invalid-config", `${file}: expected an object`, { file });
  if (raw.defaultPreset !== undefined && (typeof raw.defaultPreset !== "string" || raw.defaultPreset.trim() === "")) {
    throw new ModelConfigError("invalid-config", `${file}: "defaultPreset" must be a preset name`, { file });
  }
  return {
    file,
    exists: true,
    presets: checkPresets(raw.presets, file),
    defaultPreset: typeof raw.defaultPreset === "string" ? raw.defaultPreset.trim() : undefined,
    compactionPromptFile: resolvePromptPath(agentDir, raw.compactionPromptFile, "compactionPromptFile", file),
    branchSummaryPromptFile: resolvePromptPath(agentDir, raw.branchSummaryPromptFile, "branchSummaryPromptFile", file),
    ...filesTouchedSwitch(raw.filesTouched, file),
  };
}

function filesTouchedSwitch(value: unknown, file: string): Pick<PiSessionsConfig, "filesTouched"> {
  if (value === undefined) return {};
  const ok = isPlainObject(value) && Object.entries(value).every(([k, v]) => (k === "compaction" || k === "branchSummary") && typeof v === "boolean");
  if (!ok) throw new ModelConfigError("invalid-config", `${file}: "filesTouched" must be {"compaction"?: true|false, "branchSummary"?: true|false}`, { file });
  return { filesTouched: value as { compaction?: boolean; branchSummary?: boolean } };
}
