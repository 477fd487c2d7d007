export {
  DEFAULT_BRANCH_SUMMARY_SETTINGS,
  DEFAULT_COMPACTION_SETTINGS,
  type BranchSummarySettings,
  type CompactionSettings,
} from "./compaction-settings.js";
export { deepMergeSettings, isPlainObject, type SettingsObject } from "./deep-merge-settings.js";
export {
  globalSettingsPath,
  loadSettings,
  mergeLayers,
  PROJECT_CONFIG_DIR,
  projectSettingsPath,
  type LoadedSettings,
  type LoadSettingsOptions,
  type SettingsLayer,
  type SettingsScope,
} from "./load-settings.js";
export { parseSettingsText, readSettingsFile, type SettingsFileRead } from "./read-settings-file.js";
export {
  resolveBranchSummarySettings,
  resolveCompactionSettings,
  type ResolvedSettings,
  type SettingSource,
} from "./resolve-settings.js";
export { InvalidSettingError, resolveModelCompactionSettings } from "./model-compaction-settings.js";
