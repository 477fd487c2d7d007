// Which model writes a summary, with its key: the one entry point runners call.
// Order: an explicit model ("provider/id") → an explicit preset → the default
// preset (argument, else pi-sessions.json) → the session's own model. A
// preset whose model cannot be used (unknown, no key, failed OAuth refresh)
// falls back to the session model with a warning; an explicit model never
// falls back.

import type { PiVersion } from "../session/format/pi-version.js";
import type { SessionEntry } from "../session/format/types.js";
import { resolveRequestAuth } from "./auth.js";
import type { KeySource } from "./auth.js";
import { ModelConfigError } from "./model-config-error.js";
import { closeModelMatches, modelLabel, requireModel } from "./model-reference.js";
import type { SummaryModel } from "./model-registry.js";
import { loadModelSetup, type ModelSetup, type ModelSetupOptions } from "./model-setup.js";
import type { PiSessionsConfig, PresetTable } from "./pi-sessions-config.js";
import { lookupPreset, mergePresets } from "./presets.js";
import { unknownModelOfKnownProvider } from "./call-rules.js";
import { sessionModel } from "../context/session-model.js";
import { piAiThinkingLevel } from "./thinking-level.js";
import type { ThinkingLevel } from "./thinking-level.js";

export interface ResolveSummaryModelOptions extends ModelSetupOptions {
  /** The branch root→leaf; gives the session model ("current" and the last fallback). */
  pathEntries?: readonly SessionEntry[];
  /** Explicit "provider/id" (--model). */
  model?: string;
  /** Explicit preset name (--preset); "current" = the session model. */
  preset?: string;
  /** Presets merged over pi-sessions.json's (e.g. from VS Code settings). */
  presets?: PresetTable;
  /** Default preset overriding pi-sessions.json's. */
  defaultPreset?: string;
  /** Overrides the preset's / session's thinking level. */
  thinkingLevel?: ThinkingLevel;
}

export type SummaryModelSource = "model" | "preset" | "default-preset" | "session";

export interface ResolvedSummaryModel {
  model: SummaryModel;
  /** "provider/id". */
  label: string;
  apiKey: string;
  headers?: Record<string, string>;
  keySource: KeySource;
  thinkingLevel?: ThinkingLevel;
  source: SummaryModelSource;
  presetName?: string;
  /** Fallbacks taken, safe to show. */
  warnings: string[];
  config: PiSessionsConfig;
  /** Whose config syntax the key and headers were read with (the session's pi version). */
  piVersion: PiVersion;
}

/** Errors that make a preset unusable but leave the session model worth trying. */
const PRESET_FALLBACK_CODES = new Set(["unknown-model", "missing-key", "key-command-failed", "oauth-refresh-failed"]);

interface Context {
  options: ResolveSummaryModelOptions;
  setup: ModelSetup;
  warnings: string[];
}

async function withAuth(
  ctx: Context,
  model: SummaryModel,
  rest: Pick<ResolvedSummaryModel, "thinkingLevel" | "source" | "presetName">,
): Promise<ResolvedSummaryModel> {
  const auth = await resolveRequestAuth(model, ctx.setup);
  return {
    model,
    label: modelLabel(model),
    apiKey: auth.apiKey,
    headers: auth.headers,
    keySource: auth.keySource,
    ...rest,
    warnings: ctx.warnings,
    config: ctx.setup.config,
    piVersion: ctx.setup.piVersion,
  };
}

async function fromSession(ctx: Context, presetName?: string): Promise<ResolvedSummaryModel> {
  const session = sessionModel(ctx.options.pathEntries ?? []);
  if (!session.model) {
    throw new ModelConfigError(
      "no-session-model",
      "The session has no model on this branch yet (no assistant message or model change): choose one with a model (provider/id) or a preset.",
    );
  }
  const { provider, modelId } = session.model;
  let model = ctx.setup.registry.find(provider, modelId);
  if (!model) {
    model = unknownModelOfKnownProvider(ctx.setup.registry.models, provider, modelId);
    if (model) {
      ctx.warnings.push(
        `The session's model "${provider}/${modelId}" is not in pi-ai's model list here: it is called through ${provider}'s API like its other models, with a ${model.contextWindow}-token window and ${model.maxTokens} output tokens.`,
      );
    }
  }
  if (!model) {
    const matches = closeModelMatches(ctx.setup.registry.models, `${provider}/${modelId}`);
    throw new ModelConfigError(
      "unknown-model",
      `The session's model "${provider}/${modelId}" is not known here (not in ${ctx.setup.registry.ompModelsFile ? ctx.setup.registry.sources : `pi-ai's built-in models or ${ctx.setup.registry.modelsJsonFile}`}).${
        matches.length > 0 ? ` Close matches: ${matches.join(", ")}.` : ""
      } Choose a model (provider/id) or a preset.`,
    );
  }
  const sessionLevel = piAiThinkingLevel(session.thinkingLevel);
  return withAuth(ctx, model, { thinkingLevel: ctx.options.thinkingLevel ?? sessionLevel, source: "session", presetName });
}

async function fromPreset(ctx: Context, query: string, explicit: boolean): Promise<ResolvedSummaryModel> {
  const presets = mergePresets(ctx.setup.config.presets, ctx.options.presets);
  const found = lookupPreset(presets, query);
  const origin = explicit ? "preset" : "default preset";
  if (found.kind === "current") return fromSession(ctx, "current");
  if (found.kind === "ambiguous" || found.kind === "unknown") {
    const message =
      found.kind === "ambiguous"
        ? `The ${origin} "${query}" matches several presets: ${found.candidates.join(", ")}.`
        : `No ${origin} named "${query}" (presets: ${found.available.length > 0 ? found.available.join(", ") : "none"}; define them in ${ctx.setup.config.file}).`;
    if (explicit) throw new ModelConfigError(found.kind === "ambiguous" ? "ambiguous-preset" : "unknown-preset", message);
    ctx.warnings.push(`${message} Using the session model.`);
    return fromSession(ctx);
  }
  try {
    const model = requireModel(ctx.setup.registry, found.preset.model);
    return await withAuth(ctx, model, {
      thinkingLevel: ctx.options.thinkingLevel ?? found.preset.thinkingLevel,
      source: explicit ? "preset" : "default-preset",
      presetName: found.name,
    });
  } catch (error) {
    if (!(error instanceof ModelConfigError) || !PRESET_FALLBACK_CODES.has(error.code)) throw error;
    ctx.warnings.push(`Preset "${found.name}" cannot be used (${error.message}) Using the session model.`);
    return fromSession(ctx);
  }
}

export async function resolveSummaryModel(options: ResolveSummaryModelOptions): Promise<ResolvedSummaryModel> {
  const setup = await loadModelSetup(options);
  const { registry, config } = setup;
  const ctx: Context = { options, setup, warnings: [] };

  if (options.model !== undefined && options.model.trim() !== "") {
    const model = requireModel(registry, options.model);
    return withAuth(ctx, model, { thinkingLevel: options.thinkingLevel, source: "model" });
  }
  if (options.preset !== undefined && options.preset.trim() !== "") return fromPreset(ctx, options.preset, true);
  const defaultPreset = options.defaultPreset ?? config.defaultPreset;
  if (defaultPreset !== undefined && defaultPreset.trim() !== "") return fromPreset(ctx, defaultPreset, false);
  return fromSession(ctx);
}
