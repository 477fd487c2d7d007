// Summaries with a model or a digest: models, keys, presets, config files, the call.

export { readAuthJson } from "./auth-json.js";
export { type RequestAuth, resolveRequestAuth } from "./auth.js";
export { completeSummary, completeSummaryWithUsage, type SummaryAnswer } from "./call-model.js";
export { resolveConfigValue } from "./config-value.js";
export { buildDigest, DIGEST_FIRST_LINE } from "./digest.js";
export { withFileLock } from "./file-lock.js";
export { blankJsonComments, parseJsonConfig } from "./json-config.js";
export { findJsonSyntaxError, lineAndColumn } from "./json-syntax.js";
export { isModelCallError, ModelCallError, type ModelCallErrorKind } from "./model-call-error.js";
export { isModelConfigError, ModelConfigError, type ModelConfigErrorCode } from "./model-config-error.js";
export { closeModelMatches, findModel, requireModel } from "./model-reference.js";
export { loadModelRegistry, type ModelRegistry } from "./model-registry.js";
export { loadModelSetup } from "./model-setup.js";
export { type OAuthProviderLike, type OAuthProviderLookup } from "./oauth.js";
export { isPiAiRequested } from "./pi-ai-loader.js";
export { checkPresets, type PresetTable, readPiSessionsConfig } from "./pi-sessions-config.js";
export { lookupPreset, mergePresets } from "./presets.js";
export { type ResolvedSummaryModel, resolveSummaryModel, type ResolveSummaryModelOptions } from "./summary-model.js";
export { type ThinkingLevel } from "./thinking-level.js";
