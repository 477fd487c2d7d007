// The request pi's generateBranchSummary (branch-summarization.js) sends, and
// how it turns the answer into the entry's summary text, without a model.
// pi 1.5: its system prompt and serialisation, and no fixed maxTokens.

import type { ContextMessage } from "../context/context-message.js";
import { convertToLlm } from "../context/convert-to-llm.js";
import { formatFileOperations, type FileLists } from "../compaction/file-ops.js";
import { SUMMARY_PROMPTS } from "../compaction/prompts.js";
import { serializeConversation } from "../compaction/serialize-conversation.js";
import type { SummarySemantics } from "../compaction/summary-request.js";
import { BRANCH_SUMMARY_PREAMBLE, BRANCH_SUMMARY_PROMPT } from "./prompts.js";

/** pi: one call, fixed output budget, no reasoning. */
export const BRANCH_SUMMARY_MAX_TOKENS = 2048;
/** pi's context window when the model does not say. */
export const DEFAULT_CONTEXT_WINDOW = 128000;
/** pi's summary when there is nothing to summarise (no model call is made). */
export const NO_CONTENT_SUMMARY = "No content to summarize";

export interface BranchSummaryRequestInput {
  messages: readonly ContextMessage[];
  customInstructions?: string;
  /** With customInstructions: use them instead of pi's prompt, not as extra focus. */
  replaceInstructions?: boolean;
  /** Default pi 0.73's. */
  semantics?: SummarySemantics;
}

export interface BranchSummaryRequest {
  systemPrompt: string;
  userText: string;
  /** pi 0.73: 2048; pi 1.5: undefined (the model's limit, clamped to the window). */
  maxTokens: number | undefined;
}

export function buildBranchSummaryRequest(input: BranchSummaryRequestInput): BranchSummaryRequest {
  const version = input.semantics?.version ?? "0.73";
  const conversationText = input.semantics
    ? input.semantics.serializeConversation(input.semantics.convertToLlm(input.messages))
    : serializeConversation(convertToLlm(input.messages));
  let instructions: string;
  if (input.replaceInstructions && input.customInstructions) instructions = input.customInstructions;
  else if (input.customInstructions) instructions = `${BRANCH_SUMMARY_PROMPT}\n\nAdditional focus: ${input.customInstructions}`;
  else instructions = BRANCH_SUMMARY_PROMPT;
  return {
    systemPrompt: SUMMARY_PROMPTS[version].system,
    userText: `<conversation>\n${conversationText}\n</conversation>\n\n${instructions}`,
    maxTokens: version === "1.5" ? undefined : BRANCH_SUMMARY_MAX_TOKENS,
  };
}

/** pi's budget for the abandoned entries: the model's context window minus the reserve. */
export function branchSummaryTokenBudget(contextWindow: number | undefined, reserveTokens: number): number {
  return (contextWindow || DEFAULT_CONTEXT_WINDOW) - reserveTokens;
}

/** The summary text pi stores: preamble, the model's answer, then the file blocks. */
export function composeBranchSummary(modelText: string, files: FileLists): string {
  return BRANCH_SUMMARY_PREAMBLE + modelText + formatFileOperations(files.readFiles, files.modifiedFiles);
}
