// pi-ai 1.5.2's clampMaxTokensToContext for a summary request, on top of
// pi-ai 0.73.1 (which would otherwise send min(model.maxTokens, 32000)): pi 1.5
// passes no maxTokens, so pi-ai 1.5 uses the model's output limit, cut to what
// fits in the context window after the input (estimated at 3.5 chars/token)
// and a safety margin of max(4096, 15 % of the input); when that leaves less
// than 32768, up to 32768 but never into the last 4096 tokens; at least 1.

const CHARS_PER_TOKEN = 3.5;
const CONTEXT_SAFETY_TOKENS = 4096;
const CONTEXT_SAFETY_RATIO = 0.15;
const MIN_OUTPUT_WITH_RATIO_MARGIN = 32768;
const MIN_MAX_TOKENS = 1;

/** pi-ai 1.5's token estimate of [system prompt, one user text message] (normalizeContext + estimateContextTokens). */
export function summaryInputTokens(systemPrompt: string, userText: string): number {
  return Math.ceil(systemPrompt.length / CHARS_PER_TOKEN) + Math.ceil(userText.length / CHARS_PER_TOKEN);
}

export function clampMaxTokensToContext(model: { contextWindow: number }, inputTokens: number, maxTokens: number): number {
  if (model.contextWindow <= 0) return Math.max(MIN_MAX_TOKENS, maxTokens);
  const margin = Math.max(CONTEXT_SAFETY_TOKENS, Math.ceil(inputTokens * CONTEXT_SAFETY_RATIO));
  let room = model.contextWindow - inputTokens - margin;
  if (room < MIN_OUTPUT_WITH_RATIO_MARGIN) room = Math.min(MIN_OUTPUT_WITH_RATIO_MARGIN, model.contextWindow - inputTokens - CONTEXT_SAFETY_TOKENS);
  return Math.min(maxTokens, Math.max(MIN_MAX_TOKENS, room));
}
