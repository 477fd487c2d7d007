// The prompt text of pi's compaction calls (generateSummary and
// generateTurnPrefixSummary in compaction.js), built without calling a model.
// One deliberate difference: pi drops the user's focus text on the turn-prefix
// call (pi bug #9348); here `customInstructions` reaches it too, appended as
// `\n\nAdditional focus: …` like on the history call.

import type { ContextMessage } from "../context/context-message.js";
import { convertToLlm } from "../context/convert-to-llm.js";
import {
  SUMMARIZATION_PROMPT,
  SUMMARIZATION_SYSTEM_PROMPT,
  TURN_PREFIX_SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
} from "./prompts.js";
import { serializeConversation } from "./serialize-conversation.js";

export type SummaryKind = "history" | "turnPrefix";

export interface SummaryRequestInput {
  messages: readonly ContextMessage[];
  kind: SummaryKind;
  /** history only: the previous compaction's summary, merged with the update prompt. */
  previousSummary?: string;
  customInstructions?: string;
}

export interface SummaryRequest {
  systemPrompt: string;
  /** The single user message's text. */
  userText: string;
  /** pi's maxTokens = floor(factor × reserveTokens): 0.8 for history, 0.5 for a turn prefix. */
  maxTokensFactor: number;
}

export const HISTORY_MAX_TOKENS_FACTOR = 0.8;
export const TURN_PREFIX_MAX_TOKENS_FACTOR = 0.5;

export function buildSummaryRequest(input: SummaryRequestInput): SummaryRequest {
  const conversationText = serializeConversation(convertToLlm(input.messages));
  const conversation = `<conversation>\n${conversationText}\n</conversation>\n\n`;
  const focus = input.customInstructions ? `\n\nAdditional focus: ${input.customInstructions}` : "";
  if (input.kind === "turnPrefix") {
    return {
      systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
      userText: `${conversation}${TURN_PREFIX_SUMMARIZATION_PROMPT}${focus}`,
      maxTokensFactor: TURN_PREFIX_MAX_TOKENS_FACTOR,
    };
  }
  const previous = input.previousSummary;
  const instructions = (previous ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT) + focus;
  const previousBlock = previous ? `<previous-summary>\n${previous}\n</previous-summary>\n\n` : "";
  return {
    systemPrompt: SUMMARIZATION_SYSTEM_PROMPT,
    userText: conversation + previousBlock + instructions,
    maxTokensFactor: HISTORY_MAX_TOKENS_FACTOR,
  };
}

/**
 * maxTokens of a summary call: pi's floor(factor × reserveTokens), clamped to
 * the model's output limit when it is known (pi does not clamp: bug #4390).
 */
export function summaryMaxTokens(reserveTokens: number, factor: number, modelMaxTokens?: number): number {
  const wanted = Math.floor(factor * reserveTokens);
  return modelMaxTokens !== undefined && modelMaxTokens > 0 ? Math.min(wanted, modelMaxTokens) : wanted;
}
