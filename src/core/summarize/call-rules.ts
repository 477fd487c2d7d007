// Call details pi 1.6 changed, followed for every summary call: a reasoning
// model behind a non-OpenAI OpenAI-compatible endpoint gets the system prompt
// as `system`, not `developer` (pi 1.6.0, after Groq rejected `developer`;
// pi-ai 0.73.1 sends `developer` to any reasoning model on an endpoint it does
// not know as non-standard). And a session model pi-ai's registry does not
// know yet (pi 1.6's default `openai/gpt-6.2-sol`, tomorrow's models) is still
// called through its provider's API, shaped like that provider's known
// models, with conservative limits.

import type { SummaryModel } from "./model-registry.js";

/** Limits for a model the registry does not know: small enough for any current model. */
export const UNKNOWN_MODEL_CONTEXT_WINDOW = 128_000;
export const UNKNOWN_MODEL_MAX_TOKENS = 16_384;

function isOpenAiEndpoint(model: Pick<SummaryModel, "provider" | "baseUrl">): boolean {
  if (model.provider === "openai") return true;
  try {
    const host = new URL(model.baseUrl).hostname;
    return host === "api.openai.com" || host.endsWith(".openai.azure.com");
  } catch {
    return false;
  }
}

/** The model as the summary call sends it (pi 1.6's role rule). */
export function withSummaryCallRules(model: SummaryModel): SummaryModel {
  if (model.api !== "openai-completions" || !model.reasoning || isOpenAiEndpoint(model)) return model;
  const compat = (model.compat ?? {}) as Record<string, unknown>;
  if (compat.supportsDeveloperRole !== undefined) return model;
  return { ...model, compat: { ...compat, supportsDeveloperRole: false } } as SummaryModel;
}

/**
 * A stand-in for `provider/modelId` when the registry knows the provider but
 * not the model: the provider's API, base URL and headers (from its newest
 * known model), the given id, and conservative limits. Undefined when the
 * provider is unknown too.
 */
export function unknownModelOfKnownProvider(models: readonly SummaryModel[], provider: string, modelId: string): SummaryModel | undefined {
  const ofProvider = models.filter((m) => m.provider === provider);
  if (ofProvider.length === 0) return undefined;
  const template = ofProvider.find((m) => m.reasoning) ?? ofProvider[0]!;
  return {
    ...template,
    id: modelId,
    name: modelId,
    contextWindow: Math.min(template.contextWindow || UNKNOWN_MODEL_CONTEXT_WINDOW, UNKNOWN_MODEL_CONTEXT_WINDOW),
    maxTokens: Math.min(template.maxTokens || UNKNOWN_MODEL_MAX_TOKENS, UNKNOWN_MODEL_MAX_TOKENS),
  };
}
