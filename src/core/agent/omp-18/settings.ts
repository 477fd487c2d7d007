// omp's compaction settings (coding-agent session/context-settings.ts
// cfgCompaction, config/settings.ts): YAML, `<agent>/config.yml` (else
// `config.yaml`) then `<cwd>/.omp/config.yml`, deep-merged, the project
// winning per key; a `null` is unset; a value of the wrong type falls back to
// the default with a diagnostic. And omp's auto-compaction threshold
// (compaction.ts resolveThresholdTokens: ≥ 15 % of the window reserved).
// Parsed with `yaml` (YAML 1.2, as Bun's parser omp uses): config files use
// the whole of YAML (comments, flow maps, quoting), more than a hand-written
// subset would read the same way.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import type { Diagnostic } from "../../diagnostics.js";
import type { BranchSummarySettings, CompactionSettings } from "../../settings/compaction-settings.js";
import type { ResolvedSettings, SettingSource } from "../../settings/resolve-settings.js";

export const OMP_DEFAULT_RESERVE_TOKENS = 16384;

/** omp's compaction settings; `reserveTokens` is omp's effective floor (16384 when unset), `reserveTokensSet` what was configured. */
export interface OmpCompactionSettings extends CompactionSettings {
  reserveTokensSet?: number;
  thresholdPercent: number;
  thresholdTokens: number;
  strategy?: string;
}

export const OMP_DEFAULT_COMPACTION_SETTINGS: Readonly<OmpCompactionSettings> = Object.freeze({
  enabled: true,
  reserveTokens: OMP_DEFAULT_RESERVE_TOKENS,
  keepRecentTokens: 20000,
  thresholdPercent: -1,
  thresholdTokens: -1,
});

export interface OmpSettingsOptions {
  agentDir: string;
  cwd: string;
  trustProject?: boolean;
  overrides?: { compaction?: { keepRecentTokens?: number; reserveTokens?: number }; branchSummary?: { reserveTokens?: number } };
}

interface Layer {
  scope: "global" | "project" | "override";
  file?: string;
  settings: Record<string, unknown>;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function readYaml(file: string, scope: Layer["scope"], diagnostics: Diagnostic[]): Layer | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const parsed: unknown = parse(readFileSync(file, "utf8"));
    if (parsed === null || parsed === undefined) return { scope, file, settings: {} };
    if (!isPlainObject(parsed)) {
      diagnostics.push({ severity: "warning", code: "bad-field", message: `${file}: settings YAML must contain a mapping at the document root; ignored`, file });
      return undefined;
    }
    return { scope, file, settings: parsed };
  } catch (error) {
    diagnostics.push({ severity: "warning", code: "bad-field", message: `${file}: not valid YAML (${error instanceof Error ? error.message.split("\n")[0] : String(error)}); ignored`, file });
    return undefined;
  }
}

/** The config files omp reads for `cwd` and `agentDir`, first to last. */
export function ompConfigFiles(agentDir: string, cwd: string): string[] {
  const yml = join(agentDir, "config.yml");
  const global = existsSync(yml) || !existsSync(join(agentDir, "config.yaml")) ? yml : join(agentDir, "config.yaml");
  return [global, join(cwd, ".omp", "config.yml")];
}

type Kind = "boolean" | "number" | "string";
const KINDS: Record<string, Kind> = {
  enabled: "boolean",
  reserveTokens: "number",
  keepRecentTokens: "number",
  thresholdPercent: "number",
  thresholdTokens: "number",
  strategy: "string",
};

function configLayers(options: OmpSettingsOptions, diagnostics: Diagnostic[]): Layer[] {
  const [globalFile, projectFile] = ompConfigFiles(options.agentDir, options.cwd);
  const layers: Layer[] = [];
  const global = readYaml(globalFile!, "global", diagnostics);
  if (global) layers.push(global);
  if (options.trustProject !== false) {
    const project = readYaml(projectFile!, "project", diagnostics);
    if (project) layers.push(project);
  }
  return layers;
}

/** omp's `branchSummary.reserveTokens` (budget = window − reserve) from its config.yml files; default 16384. */
export function resolveOmpBranchSummarySettings(options: OmpSettingsOptions): ResolvedSettings<BranchSummarySettings> {
  const diagnostics: Diagnostic[] = [];
  const layers = configLayers(options, diagnostics);
  const over = options.overrides?.branchSummary?.reserveTokens;
  if (over !== undefined) layers.push({ scope: "override", settings: { branchSummary: { reserveTokens: over } } });
  const settings: BranchSummarySettings = { reserveTokens: OMP_DEFAULT_RESERVE_TOKENS, skipPrompt: false };
  const sources = { reserveTokens: { scope: "default" }, skipPrompt: { scope: "default" } } as { [K in keyof BranchSummarySettings]: SettingSource };
  for (const layer of layers) {
    const section = layer.settings.branchSummary;
    if (!isPlainObject(section) || section.reserveTokens === undefined || section.reserveTokens === null) continue;
    if (typeof section.reserveTokens !== "number" || !Number.isFinite(section.reserveTokens)) {
      const where = layer.file ?? "overrides";
      diagnostics.push({ severity: "warning", code: "bad-field", message: `${where}: branchSummary.reserveTokens is ${JSON.stringify(section.reserveTokens)}, not a number; omp's default is used`, ...(layer.file ? { file: layer.file } : {}) });
      continue;
    }
    settings.reserveTokens = section.reserveTokens;
    sources.reserveTokens = layer.file ? { scope: layer.scope, file: layer.file } : { scope: layer.scope };
  }
  return { settings, sources, diagnostics };
}

export function resolveOmpCompactionSettings(options: OmpSettingsOptions): ResolvedSettings<OmpCompactionSettings> {
  const diagnostics: Diagnostic[] = [];
  const layers = configLayers(options, diagnostics);
  const over = options.overrides?.compaction;
  if (over) {
    const o: Record<string, unknown> = {};
    if (over.keepRecentTokens !== undefined) o.keepRecentTokens = over.keepRecentTokens;
    if (over.reserveTokens !== undefined) o.reserveTokens = over.reserveTokens;
    layers.push({ scope: "override", settings: { compaction: o } });
  }
  const settings: OmpCompactionSettings = { ...OMP_DEFAULT_COMPACTION_SETTINGS };
  const sources = {} as { [K in keyof OmpCompactionSettings]: SettingSource };
  for (const key of Object.keys(OMP_DEFAULT_COMPACTION_SETTINGS) as (keyof OmpCompactionSettings)[]) sources[key] = { scope: "default" };
  for (const [key, kind] of Object.entries(KINDS)) {
    let found: { value: unknown; layer: Layer } | undefined;
    for (const layer of layers) {
      const section = layer.settings.compaction;
      if (!isPlainObject(section) || !(key in section)) continue;
      found = { value: section[key], layer };
    }
    if (!found || found.value === null || found.value === undefined) continue;
    const ok = kind === "number" ? typeof found.value === "number" && Number.isFinite(found.value) : typeof found.value === kind;
    if (!ok) {
      const where = found.layer.file ?? "overrides";
      diagnostics.push({ severity: "warning", code: "bad-field", message: `${where}: compaction.${key} is ${JSON.stringify(found.value)}, not a ${kind}; omp's default is used`, ...(found.layer.file ? { file: found.layer.file } : {}) });
      continue;
    }
    (settings as unknown as Record<string, unknown>)[key] = found.value;
    if (key === "reserveTokens") settings.reserveTokensSet = found.value as number;
    sources[key as keyof OmpCompactionSettings] = found.layer.file ? { scope: found.layer.scope, file: found.layer.file } : { scope: found.layer.scope };
  }
  return { settings, sources, diagnostics };
}

/** Settings from elsewhere read as omp's: omp's fields where present, else its defaults (a pi-shaped reserve is not omp's floor). */
export function asOmpSettings(settings: CompactionSettings): OmpCompactionSettings {
  const s = settings as Partial<OmpCompactionSettings>;
  return {
    ...settings,
    thresholdPercent: typeof s.thresholdPercent === "number" ? s.thresholdPercent : -1,
    thresholdTokens: typeof s.thresholdTokens === "number" ? s.thresholdTokens : -1,
  };
}

/** effectiveReserveTokens: at least 15 % of the window. */
export function effectiveReserveTokens(contextWindow: number, settings: OmpCompactionSettings): number {
  return Math.max(Math.floor(contextWindow * 0.15), settings.reserveTokensSet ?? OMP_DEFAULT_RESERVE_TOKENS);
}

function budgetReserveTokens(contextWindow: number, settings: OmpCompactionSettings): number {
  const reserve = effectiveReserveTokens(contextWindow, settings);
  const proportional = Math.max(1, Math.floor(contextWindow * 0.15));
  const impossibleDefault = settings.reserveTokensSet === undefined && reserve >= contextWindow - proportional;
  return impossibleDefault || reserve >= contextWindow ? proportional : reserve;
}

/** resolveThresholdTokens: the context size above which omp compacts. */
export function resolveThresholdTokens(contextWindow: number, settings: OmpCompactionSettings): number {
  const tokens = settings.thresholdTokens;
  if (typeof tokens === "number" && Number.isFinite(tokens) && tokens > 0) return Math.min(contextWindow - 1, Math.max(1, tokens));
  const percent = settings.thresholdPercent;
  if (typeof percent !== "number" || !Number.isFinite(percent) || percent <= 0) {
    return Math.max(0, Math.min(contextWindow - 1, contextWindow - budgetReserveTokens(contextWindow, settings)));
  }
  return Math.floor(contextWindow * (Math.min(99, Math.max(1, percent)) / 100));
}

export function shouldCompact(contextTokens: number, contextWindow: number, settings: OmpCompactionSettings): boolean {
  if (!settings.enabled || settings.strategy === "off" || contextWindow <= 0) return false;
  return contextTokens > resolveThresholdTokens(contextWindow, settings);
}
