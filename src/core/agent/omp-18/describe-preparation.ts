// omp's preparation as the `prepare --json` document (the fields cli.md names
// for omp, equal to omp's prepareCompaction), with omp's transcript of the two
// parts (convertToLlm + the legacy serializeConversation).

import type { CompactablePreparationJson, PreparationJson } from "../../compaction/describe-preparation.js";
import type { CompactionPlan, CompactionPreparation } from "../../compaction/prepare-compaction.js";
import type { ContextMessage } from "../../context/context-message.js";
import type { CompactionSettings } from "../../settings/compaction-settings.js";
import { ompConvertToLlm } from "./convert-to-llm.js";
import type { OmpMessage } from "./messages.js";
import { computeFileLists, type OmpPrepareResult } from "./prepare-compaction.js";
import { ompSerializeConversation } from "./serialize-conversation.js";

/** omp's result as the seam's plan (file operations as sorted lists). */
export function ompPlan(result: OmpPrepareResult, settings: CompactionSettings): CompactionPlan {
  if (!result.compactable) return { compactable: false, code: result.code, reason: result.reason };
  const p = result.preparation;
  const preparation: CompactionPreparation = {
    firstKeptEntryId: p.firstKeptEntryId,
    messagesToSummarize: p.messagesToSummarize as ContextMessage[],
    turnPrefixMessages: p.turnPrefixMessages as ContextMessage[],
    isSplitTurn: p.isSplitTurn,
    tokensBefore: p.tokensBefore,
    fileOps: { read: [...p.fileOps.read].sort(), written: [...p.fileOps.written].sort(), edited: [...p.fileOps.edited].sort() },
    settings,
  };
  if (p.previousSummary !== undefined) preparation.previousSummary = p.previousSummary;
  return { compactable: true, preparation };
}

function serialized(messages: readonly ContextMessage[]): string {
  return ompSerializeConversation(ompConvertToLlm(messages as readonly OmpMessage[]));
}

export function describeOmpPlan(plan: CompactionPlan): PreparationJson {
  if (!plan.compactable) return { compactable: false, reason: plan.reason, code: plan.code };
  const p = plan.preparation;
  const { readFiles, modifiedFiles } = computeFileLists({ read: new Set(p.fileOps.read), written: new Set(p.fileOps.written), edited: new Set(p.fileOps.edited) });
  const json: CompactablePreparationJson = {
    compactable: true,
    firstKeptEntryId: p.firstKeptEntryId,
    isSplitTurn: p.isSplitTurn,
    tokensBefore: p.tokensBefore,
    messagesToSummarize: p.messagesToSummarize.length,
    turnPrefixMessages: p.turnPrefixMessages.length,
    previousSummary: typeof p.previousSummary === "string" ? p.previousSummary : null,
    readFiles,
    modifiedFiles,
    serializedHistory: serialized(p.messagesToSummarize),
    serializedTurnPrefix: serialized(p.turnPrefixMessages),
  };
  return json;
}
