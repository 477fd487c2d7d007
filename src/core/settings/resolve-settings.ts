// Resolved compaction / branch-summary settings, each value with where it came
// from. Values equal pi's getCompactionSettings / getBranchSummarySettings
// (`merged.section?.key ?? default`) for every value of the right type; a value
// of the wrong type (pi would use it as is, e.g. a string reserveTokens makes
// the threshold NaN) falls back to the default with a diagnostic naming its file.

import type { Diagnostic } from "../diagnostics.js";
import {
  DEFAULT_BRANCH_SUMMARY_SETTINGS,
  DEFAULT_COMPACTION_SETTINGS,
  type BranchSummarySettings,
  type CompactionSettings,
} from "./compaction-settings.js";
import { isPlainObject } from "./deep-merge-settings.js";
import { loadSettings, type LoadedSettings, type LoadSettingsOptions, type SettingsLayer, type SettingsScope } from "./load-settings.js";

export interface SettingSource {
  scope: SettingsScope | "default";
  /** The settings file the value came from, for global/project values. */
  file?: string;
}

export interface ResolvedSettings<T> {
  settings: T;
  sources: { [K in keyof T]: SettingSource };
  diagnostics: Diagnostic[];
}

type Kind = "boolean" | "number";

export function resolveCompactionSettings(from: LoadSettingsOptions | LoadedSettings): ResolvedSettings<CompactionSettings> {
  return resolveSection(asLoaded(from), "compaction", DEFAULT_COMPACTION_SETTINGS, {
    enabled: "boolean",
    reserveTokens: "number",
    keepRecentTokens: "number",
  });
}

export function resolveBranchSummarySettings(
  from: LoadSettingsOptions | LoadedSettings,
): ResolvedSettings<BranchSummarySettings> {
  return resolveSection(asLoaded(from), "branchSummary", DEFAULT_BRANCH_SUMMARY_SETTINGS, {
    reserveTokens: "number",
    skipPrompt: "boolean",
  });
}

function asLoaded(from: LoadSettingsOptions | LoadedSettings): LoadedSettings {
  return "layers" in from ? from : loadSettings(from);
}

function resolveSection<T extends object>(
  loaded: LoadedSettings,
  section: string,
  defaults: Readonly<T>,
  kinds: { [K in keyof T]: Kind },
): ResolvedSettings<T> {
  const settings = { ...defaults } as T;
  const sources = {} as { [K in keyof T]: SettingSource };
  const diagnostics = [...loaded.diagnostics];
  for (const key of Object.keys(kinds) as (keyof T & string)[]) {
    const found = traceValue(loaded.layers, section, key);
    sources[key] = { scope: "default" };
    if (found === undefined || found.value === undefined || found.value === null) continue;
    if (!hasKind(found.value, kinds[key])) {
      diagnostics.push(badValue(found.layer, section, key, found.value, kinds[key]));
      continue;
    }
    (settings as Record<string, unknown>)[key] = found.value;
    sources[key] = found.layer.file ? { scope: found.layer.scope, file: found.layer.file } : { scope: found.layer.scope };
  }
  return { settings, sources, diagnostics };
}

/**
 * Replays pi's merge for one `section.key`: a layer whose section is a plain
 * object merges into a plain-object section (its keys win) and replaces
 * anything else; a non-object section replaces the whole section.
 */
function traceValue(
  layers: readonly SettingsLayer[],
  section: string,
  key: string,
): { value: unknown; layer: SettingsLayer } | undefined {
  let current: { value: unknown; layer: SettingsLayer } | undefined;
  let sectionIsObject = false;
  for (const layer of layers) {
    const value = layer.settings[section];
    if (value === undefined) continue;
    if (!isPlainObject(value)) {
      current = undefined;
      sectionIsObject = false;
      continue;
    }
    const has = Object.prototype.hasOwnProperty.call(value, key) && value[key] !== undefined;
    if (has) current = { value: value[key], layer };
    else if (!sectionIsObject) current = undefined;
    sectionIsObject = true;
  }
  return current;
}

function hasKind(value: unknown, kind: Kind): boolean {
  return kind === "boolean" ? typeof value === "boolean" : typeof value === "number" && Number.isFinite(value);
}

function badValue(layer: SettingsLayer, section: string, key: string, value: unknown, kind: Kind): Diagnostic {
  const where = layer.file ?? "overrides";
  const diagnostic: Diagnostic = {
    severity: "warning",
    code: "bad-field",
    message: `${where}: ${section}.${key} is ${JSON.stringify(value)}, not a ${kind}; the default is used`,
  };
  if (layer.file) diagnostic.file = layer.file;
  return diagnostic;
}
