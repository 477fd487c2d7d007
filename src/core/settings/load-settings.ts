// pi's settings layers: `<agentDir>/settings.json` (global), then
// `<cwd>/.pi/settings.json` (project, skipped for an untrusted workspace), then
// explicit overrides (CLI flags, VS Code settings), merged as pi merges them.

import { join } from "node:path";
import type { Diagnostic } from "../diagnostics.js";
import { deepMergeSettings, isPlainObject, type SettingsObject } from "./deep-merge-settings.js";
import { readSettingsFile } from "./read-settings-file.js";

export type SettingsScope = "global" | "project" | "override";

export interface SettingsLayer {
  scope: SettingsScope;
  /** The file this layer was read from (none for overrides). */
  file?: string;
  settings: SettingsObject;
}

export interface LoadSettingsOptions {
  agentDir: string;
  cwd: string;
  /** false: an untrusted workspace; its `.pi/settings.json` is not read. Default true. */
  trustProject?: boolean;
  /** Applied last. Keys whose value is undefined are ignored (an unset flag overrides nothing). */
  overrides?: SettingsObject;
}

export interface LoadedSettings {
  layers: SettingsLayer[];
  merged: SettingsObject;
  diagnostics: Diagnostic[];
}

/** pi's project config dir name (`CONFIG_DIR_NAME`). */
export const PROJECT_CONFIG_DIR = ".pi";

export function globalSettingsPath(agentDir: string): string {
  return join(agentDir, "settings.json");
}

export function projectSettingsPath(cwd: string): string {
  return join(cwd, PROJECT_CONFIG_DIR, "settings.json");
}

export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const layers: SettingsLayer[] = [];
  const diagnostics: Diagnostic[] = [];
  const globalFile = globalSettingsPath(options.agentDir);
  const global = readSettingsFile(globalFile);
  layers.push({ scope: "global", file: globalFile, settings: global.settings });
  diagnostics.push(...global.diagnostics);
  if (options.trustProject !== false) {
    const projectFile = projectSettingsPath(options.cwd);
    const project = readSettingsFile(projectFile);
    layers.push({ scope: "project", file: projectFile, settings: project.settings });
    diagnostics.push(...project.diagnostics);
  }
  if (options.overrides) layers.push({ scope: "override", settings: withoutUndefined(options.overrides) });
  return { layers, merged: mergeLayers(layers), diagnostics };
}

export function mergeLayers(layers: readonly SettingsLayer[]): SettingsObject {
  let merged: SettingsObject = {};
  for (const layer of layers) merged = deepMergeSettings(merged, layer.settings);
  return merged;
}

function withoutUndefined(settings: SettingsObject): SettingsObject {
  const out: SettingsObject = {};
  for (const [key, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    if (isPlainObject(value)) {
      const inner: SettingsObject = {};
      for (const [k, v] of Object.entries(value)) if (v !== undefined) inner[k] = v;
      out[key] = inner;
    } else {
      out[key] = value;
    }
  }
  return out;
}
