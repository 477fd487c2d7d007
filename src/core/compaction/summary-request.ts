// The prompt text of pi's compaction calls (generateSummary and
// generateTurnPrefixSummary in compaction.js), built without calling a model.
// One deliberate difference: pi drops the user's focus text on the turn-prefix
// call (pi bug #9348); here `customInstructions` reaches it too, appended as
// `\n\nAdditional focus: …` like on the history call (pi 1.5 does it too).
// pi 1.5 (`semantics` of 1.5): its system prompt, its serialisation (no
// thinking), and the turn prefix laid out as `# Conversation` / `# Instructions`.

import type { ContextMessage } from "../context/context-message.js";
import { convertToLlm } from "../context/convert-to-llm.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { LlmMessage } from "../session/format/types.js";
import { SUMMARY_PROMPTS } from "./prompts.js";
import { serializeConversation } from "./serialize-conversation.js";

/** What a summary request needs from an agent's semantics (AgentSemantics has it). */
export interface SummarySemantics {
  readonly version: PiVersion;
  convertToLlm(messages: readonly ContextMessage[]): LlmMessage[];
  serializeConversation(messages: readonly LlmMessage[]): string;
}

const SEMANTICS_0_73: SummarySemantics = { version: "0.73", convertToLlm, serializeConversation };

export type SummaryKind = "history" | "turnPrefix";

export interface SummaryRequestInput {
  messages: readonly ContextMessage[];
  kind: SummaryKind;
  /** history only: the previous compaction's summary, merged with the update prompt. */
  previousSummary?: string;
  customInstructions?: string;
  /** Default pi 0.73's. */
  semantics?: SummarySemantics;
}

export interface SummaryRequest {
  systemPrompt: string;
  /** The single user message's text. */
  userText: string;
  /** pi 0.73's maxTokens = floor(factor × reserveTokens): 0.8 for history, 0.5 for a turn prefix (1.5 ignores it). */
  maxTokensFactor: number;
}

export const HISTORY_MAX_TOKENS_FACTOR = 0.8;
export const TURN_PREFIX_MAX_TOKENS_FACTOR = 0.5;

export function buildSummaryRequest(input: SummaryRequestInput): SummaryRequest {
  const semantics = input.semantics ?? SEMANTICS_0_73;
  const prompts = SUMMARY_PROMPTS[semantics.version];
  const conversationText = semantics.serializeConversation(semantics.convertToLlm(input.messages));
  const conversation = `<conversation>\n${conversationText}\n</conversation>\n\n`;
  const focus = input.customInstructions ? `\n\nAdditional focus: ${input.customInstructions}` : "";
  if (input.kind === "turnPrefix") {
    const layout =
      prompts.turnPrefixLayout === "markdown-headings"
        ? `# Conversation\n${conversationText}\n\n# Instructions\n${prompts.turnPrefix}`
        : `${conversation}${prompts.turnPrefix}`;
    return { systemPrompt: prompts.system, userText: layout + focus, maxTokensFactor: TURN_PREFIX_MAX_TOKENS_FACTOR };
  }
  const previous = input.previousSummary;
  const instructions = (previous ? prompts.update : prompts.history) + focus;
  const previousBlock = previous ? `<previous-summary>\n${previous}\n</previous-summary>\n\n` : "";
  return {
    systemPrompt: prompts.system,
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
