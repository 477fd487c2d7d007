// pi 1.5.2's getCompactionSettings(model) (settings-manager.js): layers merged
// recursively, each token value from `compaction.modelOverrides["provider/id"]`,
// else `compaction.<field>`, else the default; a token value that is not a
// non-negative safe integer is an error (pi 1.5 throws, with these messages).
// Explicit overrides (CLI flags, VS Code settings) win over model overrides.

import { isPlainObject, type SettingsObject } from "./deep-merge-settings.js";
import { DEFAULT_COMPACTION_SETTINGS, type CompactionSettings } from "./compaction-settings.js";
import { loadSettings, type LoadedSettings, type LoadSettingsOptions } from "./load-settings.js";
import { resolveCompactionSettings, type ResolvedSettings } from "./resolve-settings.js";

export class InvalidSettingError extends Error {
  constructor(
    message: string,
    /** The settings file the value came from, when known. */
    readonly file?: string,
  ) {
    super(message);
    this.name = "InvalidSettingError";
  }
}

type TokenField = "reserveTokens" | "keepRecentTokens";
const TOKEN_FIELDS: readonly TokenField[] = ["reserveTokens", "keepRecentTokens"];

function deepMergeObjects(base: SettingsObject, overrides: SettingsObject): SettingsObject {
  const result: SettingsObject = { ...base };
  for (const key of Object.keys(overrides)) {
    const value = overrides[key];
    if (value === undefined) continue;
    const baseValue = base[key];
    result[key] = isPlainObject(baseValue) && isPlainObject(value) ? deepMergeObjects(baseValue, value) : value;
  }
  return result;
}

const isTokenCount = (value: unknown): boolean => typeof value === "number" && Number.isSafeInteger(value) && value >= 0;
const field = (container: unknown, key: string): unknown => (isPlainObject(container) ? container[key] : undefined);

/** The last file layer that set `path` (for error messages). */
function fileSetting(loaded: LoadedSettings, read: (settings: SettingsObject) => unknown): string | undefined {
  let file: string | undefined;
  for (const layer of loaded.layers) if (read(layer.settings) !== undefined) file = layer.file;
  return file;
}

export function resolveModelCompactionSettings(
  from: LoadSettingsOptions | LoadedSettings,
  model?: string,
): ResolvedSettings<CompactionSettings> {
  const loaded = "layers" in from ? from : loadSettings(from);
  const base = resolveCompactionSettings(loaded);
  const fileLayers = loaded.layers.filter((layer) => layer.scope !== "override");
  const explicit = loaded.layers.filter((layer) => layer.scope === "override");
  let merged: SettingsObject = {};
  for (const layer of fileLayers) merged = deepMergeObjects(merged, layer.settings);
  const compaction = merged.compaction;

  const settings: CompactionSettings = { ...base.settings };
  const sources = { ...base.sources };
  // pi 1.5 hands `enabled` on as written and only tests its truthiness ("no" compacts, 0 does not).
  const explicitEnabled = explicit.map((layer) => field(layer.settings.compaction, "enabled")).filter((v) => v !== undefined).pop();
  if (explicitEnabled === undefined) settings.enabled = Boolean(field(compaction, "enabled") ?? DEFAULT_COMPACTION_SETTINGS.enabled);
  for (const name of TOKEN_FIELDS) {
    const ordinary = field(compaction, name);
    if (ordinary !== undefined && !isTokenCount(ordinary)) {
      throw new InvalidSettingError(
        `Invalid compaction.${name} setting: ${String(ordinary)}. Expected a non-negative safe integer.`,
        fileSetting(loaded, (s) => field(s.compaction, name)),
      );
    }
    const entry = model !== undefined ? field(field(compaction, "modelOverrides"), model) : undefined;
    if (entry !== undefined && !isPlainObject(entry)) {
      throw new InvalidSettingError(
        `Invalid compaction.modelOverrides["${model}"] setting: ${String(entry)}. Expected an object.`,
        fileSetting(loaded, (s) => field(field(s.compaction, "modelOverrides"), model!)),
      );
    }
    const override = field(entry, name);
    if (override !== undefined && !isTokenCount(override)) {
      throw new InvalidSettingError(
        `Invalid compaction.modelOverrides["${model}"].${name} setting: ${String(override)}. Expected a non-negative safe integer.`,
        fileSetting(loaded, (s) => field(field(field(s.compaction, "modelOverrides"), model!), name)),
      );
    }
    const flag = explicit.map((layer) => field(layer.settings.compaction, name)).filter((v) => v !== undefined).pop();
    if (flag !== undefined) continue; // already in base, with its source
    const value = (override ?? ordinary ?? DEFAULT_COMPACTION_SETTINGS[name]) as number;
    settings[name] = value;
    if (override !== undefined) {
      const file = fileSetting(loaded, (s) => field(field(field(s.compaction, "modelOverrides"), model!), name));
      const layer = fileLayers.find((l) => l.file === file);
      sources[name] = file ? { scope: layer?.scope ?? "global", file } : { scope: "default" };
    }
  }
  return { settings, sources, diagnostics: base.diagnostics.filter((d) => !/compaction\.(enabled|reserveTokens|keepRecentTokens)/.test(d.message)) };
}
