// The `pi-sessions prepare --json` document (shared/spec/cli.md) for a plan.

import type { ContextMessage } from "../context/context-message.js";
import { convertToLlm } from "../context/convert-to-llm.js";
import type { LlmMessage } from "../session/format/types.js";
import { computeFileLists } from "./file-ops.js";
import type { CompactionPlan, CompactionPreparation, NotCompactableCode } from "./prepare-compaction.js";
import { serializeConversation } from "./serialize-conversation.js";

export interface CompactablePreparationJson {
  compactable: true;
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  tokensBefore: number;
  messagesToSummarize: number;
  turnPrefixMessages: number;
  previousSummary: string | null;
  readFiles: string[];
  modifiedFiles: string[];
  serializedHistory: string;
  serializedTurnPrefix: string;
}

export interface NotCompactablePreparationJson {
  compactable: false;
  reason: string;
  code: NotCompactableCode;
}

export type PreparationJson = CompactablePreparationJson | NotCompactablePreparationJson;

/** How a pi version turns messages into the summariser's transcript (0.73.1's by default). */
export interface TranscriptFunctions {
  convertToLlm(messages: readonly ContextMessage[]): LlmMessage[];
  serializeConversation(messages: readonly LlmMessage[]): string;
}

const PI_0_73_TRANSCRIPT: TranscriptFunctions = { convertToLlm, serializeConversation };

/** Accepts a plan (from planCompaction) or a bare preparation (treated as compactable). */
export function describePreparation(
  planOrPreparation: CompactionPlan | CompactionPreparation,
  transcript: TranscriptFunctions = PI_0_73_TRANSCRIPT,
): PreparationJson {
  if ("compactable" in planOrPreparation) {
    if (!planOrPreparation.compactable) {
      return { compactable: false, reason: planOrPreparation.reason, code: planOrPreparation.code };
    }
    return describeCompactable(planOrPreparation.preparation, transcript);
  }
  return describeCompactable(planOrPreparation, transcript);
}

function describeCompactable(prep: CompactionPreparation, transcript: TranscriptFunctions): CompactablePreparationJson {
  const { readFiles, modifiedFiles } = computeFileLists(prep.fileOps);
  return {
    compactable: true,
    firstKeptEntryId: prep.firstKeptEntryId,
    isSplitTurn: prep.isSplitTurn,
    tokensBefore: prep.tokensBefore,
    messagesToSummarize: prep.messagesToSummarize.length,
    turnPrefixMessages: prep.turnPrefixMessages.length,
    previousSummary: typeof prep.previousSummary === "string" ? prep.previousSummary : null,
    readFiles,
    modifiedFiles,
    serializedHistory: transcript.serializeConversation(transcript.convertToLlm(prep.messagesToSummarize)),
    serializedTurnPrefix: transcript.serializeConversation(transcript.convertToLlm(prep.turnPrefixMessages)),
  };
}
