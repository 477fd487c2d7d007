// The `pi-sessions prepare --json` document (shared/spec/cli.md) for a plan.

import { convertToLlm } from "../context/convert-to-llm.js";
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

/** Accepts a plan (from planCompaction) or a bare preparation (treated as compactable). */
export function describePreparation(planOrPreparation: CompactionPlan | CompactionPreparation): PreparationJson {
  if ("compactable" in planOrPreparation) {
    if (!planOrPreparation.compactable) {
      return { compactable: false, reason: planOrPreparation.reason, code: planOrPreparation.code };
    }
    return describeCompactable(planOrPreparation.preparation);
  }
  return describeCompactable(planOrPreparation);
}

function describeCompactable(prep: CompactionPreparation): CompactablePreparationJson {
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
    serializedHistory: serializeConversation(convertToLlm(prep.messagesToSummarize)),
    serializedTurnPrefix: serializeConversation(convertToLlm(prep.turnPrefixMessages)),
  };
}
