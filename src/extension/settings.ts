// The extension's settings (piSessions.*), read into one typed object. API keys
// are never a setting: they live in SecretStorage (api-keys.ts).
import { isAbsolute, join, resolve } from "node:path";
import { homedir } from "node:os";
import * as vscode from "vscode";
import { defaultAgentDir } from "../core/discovery/discover";
import { ompAgentDir, ompSessionsRoot } from "../core/agent/omp-18/omp-dirs";
import type { SettingsObject } from "../core/settings";
import { checkPresets, type PresetTable } from "../core/summarize/pi-sessions-config";
import type { PromptFileRef } from "../core/write";
import { isPiVersion, type PiVersion } from "../core/agent";

export const SETTINGS_SECTION = "piSessions";

export interface ExtensionSettings {
  agentDir: string;
  include: string[];
  exclude: string[];
  compaction: { enabled?: boolean; reserveTokens?: number; keepRecentTokens?: number; confirm: boolean };
  branchSummary: { reserveTokens?: number };
  presets: PresetTable;
  /** A problem with piSessions.presets (shown, and the presets ignored). */
  presetsProblem?: string;
  defaultPreset?: string;
  compactionPromptFile?: PromptFileRef;
  branchSummaryPromptFile?: PromptFileRef;
  filesTouched: { compaction: boolean; branchSummary: boolean };
  autoCompactionNotice: { enabled: boolean; idleSeconds: number };
  /** piSessions.piVersion; undefined = "auto". */
  piVersion?: PiVersion;
  /** piSessions.omp.*: list oh-my-pi's sessions too, from its agent dir and sessions folder. */
  omp: { enabled: boolean; agentDir: string; sessionsRoot: string };
  /** piSessions.sessionFolders: more folders whose session files (pi's or omp's, directly inside) are listed. */
  sessionFolders: string[];
}

/**
 * oh-my-pi's sessions folder when its files can be told apart by where they lie:
 * undefined when omp discovery is off, or when omp's folder is pi's own (omp
 * honours $PI_CODING_AGENT_DIR too: a shared folder says nothing about whose a file is).
 */
export function ompSessionsFolder(settings: Pick<ExtensionSettings, "omp" | "agentDir">): string | undefined {
  if (!settings.omp.enabled) return undefined;
  return resolve(settings.omp.sessionsRoot) === resolve(settings.agentDir, "sessions") ? undefined : settings.omp.sessionsRoot;
}

function expandHome(path: string): string {
  if (path === "~") return homedir();
  if (path.startsWith("~/")) return join(homedir(), path.slice(2));
  return path;
}

function optionalNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

function stringList(value: unknown, fallback: string[]): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string" && v.trim() !== "") : fallback;
}

/**
 * A prompt file setting: a workspace value is the project's (relative to the first
 * folder, ignored when the workspace is not trusted), a user value is the user's.
 */
function promptFileSetting(config: vscode.WorkspaceConfiguration, key: string): PromptFileRef | undefined {
  const inspected = config.inspect<string>(key);
  const fromWorkspace = inspected?.workspaceFolderValue ?? inspected?.workspaceValue;
  const value = fromWorkspace ?? inspected?.globalValue;
  if (typeof value !== "string" || value.trim() === "") return undefined;
  const path = expandHome(value.trim());
  if (fromWorkspace !== undefined) {
    const base = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
    return { path: isAbsolute(path) ? path : resolve(base, path), scope: "project" };
  }
  return { path: isAbsolute(path) ? path : resolve(homedir(), path), scope: "user" };
}

export function readExtensionSettings(): ExtensionSettings {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const agentDirSetting = config.get<string>("agentDir", "").trim();
  let presets: PresetTable = {};
  let presetsProblem: string | undefined;
  try {
    presets = checkPresets(config.get<unknown>("presets", {}) ?? {}, "the setting piSessions.presets");
  } catch (error) {
    presetsProblem = error instanceof Error ? error.message : String(error);
  }
  const defaultPreset = config.get<string>("defaultPreset", "").trim();
  const piVersion = config.get<string>("piVersion", "auto");
  const ompAgentDirSetting = config.get<string>("omp.agentDir", "").trim();
  const ompDir = ompAgentDirSetting ? expandHome(ompAgentDirSetting) : ompAgentDir();
  return {
    omp: { enabled: config.get<boolean>("omp.enabled", true), agentDir: ompDir, sessionsRoot: ompSessionsRoot(ompDir) },
    ...(isPiVersion(piVersion) ? { piVersion } : {}),
    agentDir: agentDirSetting ? expandHome(agentDirSetting) : defaultAgentDir(process.env),
    sessionFolders: stringList(config.get("sessionFolders"), []).map((folder) => expandHome(folder.trim())).filter((folder) => isAbsolute(folder)),
    include: stringList(config.get("include"), ["**/*.jsonl"]),
    exclude: stringList(config.get("exclude"), ["**/node_modules/**"]),
    compaction: {
      enabled: config.get<boolean | null>("compaction.enabled", null) ?? undefined,
      reserveTokens: optionalNumber(config.get("compaction.reserveTokens")),
      keepRecentTokens: optionalNumber(config.get("compaction.keepRecentTokens")),
      confirm: config.get<boolean>("compaction.confirm", true),
    },
    branchSummary: { reserveTokens: optionalNumber(config.get("branchSummary.reserveTokens")) },
    presets,
    ...(presetsProblem ? { presetsProblem } : {}),
    ...(defaultPreset ? { defaultPreset } : {}),
    compactionPromptFile: promptFileSetting(config, "compactionPromptFile"),
    branchSummaryPromptFile: promptFileSetting(config, "branchSummaryPromptFile"),
    filesTouched: {
      compaction: config.get<boolean>("filesTouched.compaction", true),
      branchSummary: config.get<boolean>("filesTouched.branchSummary", true),
    },
    autoCompactionNotice: {
      enabled: config.get<boolean>("autoCompactionNotice.enabled", false),
      idleSeconds: Math.max(0, optionalNumber(config.get("autoCompactionNotice.idleSeconds")) ?? 60),
    },
  };
}

/** Settings values that override pi's settings files (null/unset = the files win). */
export function settingsOverrides(settings: ExtensionSettings): SettingsObject {
  return {
    compaction: {
      enabled: settings.compaction.enabled,
      reserveTokens: settings.compaction.reserveTokens,
      keepRecentTokens: settings.compaction.keepRecentTokens,
    },
    branchSummary: { reserveTokens: settings.branchSummary.reserveTokens },
  };
}
