// pi 1.5.2's prepareCompaction (compaction/compaction.js) on the projection:
// history starts after the newest compaction's kept tail as projected, system
// messages are never summarised, tokensBefore is estimateProjectedContextTokens,
// and "nothing to compact" when no non-system message would be summarised.

import type { CompactionPlan, CompactionPreparation } from "../../compaction/prepare-compaction.js";
import { addFileOpsFromDetails, createFileOps, fileOpsToLists } from "../../compaction/file-ops.js";
import { isObject, type ContextMessage } from "../../context/context-message.js";
import type { CompactionEntry, SessionEntry } from "../../session/format/types.js";
import type { CompactionSettings } from "../../settings/compaction-settings.js";
import { extractFileOpsFromMessage } from "./file-ops.js";
import { findProjectedCutPoint } from "./projected-cut-point.js";
import { estimateProjectedContextTokens } from "./projected-tokens.js";
import { buildSessionProjection, type ProjectedEntry } from "./projection.js";

/** pi 1.5's getMessagesFromProjectedEntryForCompaction. */
function messagesForCompaction(entry: ProjectedEntry): ContextMessage[] {
  if (entry.sourceEntry.type === "compaction") return [];
  return entry.messages.filter((message) => !isObject(message) || message.role !== "system");
}

export function planCompaction(pathEntries: readonly SessionEntry[], settings: CompactionSettings): CompactionPlan {
  if (pathEntries.length === 0) return { compactable: false, code: "empty-branch", reason: "the branch has no entries" };
  const leaf = pathEntries[pathEntries.length - 1]!;
  if (leaf.type === "compaction") {
    return { compactable: false, code: "already-compacted", reason: `the leaf ${leaf.id} is already a compaction` };
  }

  const projection = buildSessionProjection(pathEntries);
  const projected = projection.entries;
  const prevCompactionIndex = projected.findIndex((e) => e.sourceEntry.type === "compaction" && e.messages.length > 0);
  const prevCompaction = prevCompactionIndex >= 0 ? (projected[prevCompactionIndex]!.sourceEntry as CompactionEntry) : undefined;
  const boundaryStart = prevCompaction ? prevCompactionIndex + 1 : 0;

  const tokensBefore = estimateProjectedContextTokens(projection, pathEntries).tokens;
  const cutPoint = findProjectedCutPoint(projected, boundaryStart, projected.length, settings.keepRecentTokens);
  const firstKeptEntry = projected[cutPoint.firstKeptEntryIndex]?.sourceEntry;
  if (!firstKeptEntry?.id) {
    return firstKeptEntry
      ? { compactable: false, code: "needs-migration", reason: "the first kept entry has no id: the session needs migration to version 3" }
      : { compactable: false, code: "nothing-to-summarize", reason: "Nothing to compact (session too small)" };
  }

  const historyEnd = cutPoint.isSplitTurn ? cutPoint.turnStartIndex : cutPoint.firstKeptEntryIndex;
  const messagesToSummarize = projected.slice(boundaryStart, historyEnd).flatMap(messagesForCompaction);
  const turnPrefixMessages = cutPoint.isSplitTurn
    ? projected.slice(cutPoint.turnStartIndex, cutPoint.firstKeptEntryIndex).flatMap(messagesForCompaction)
    : [];

  const fileOps = createFileOps();
  if (prevCompaction && !prevCompaction.fromHook && prevCompaction.details) addFileOpsFromDetails(prevCompaction.details, fileOps);
  for (const message of messagesToSummarize) extractFileOpsFromMessage(message, fileOps);
  for (const message of turnPrefixMessages) extractFileOpsFromMessage(message, fileOps);

  const preparation: CompactionPreparation = {
    firstKeptEntryId: firstKeptEntry.id,
    messagesToSummarize,
    turnPrefixMessages,
    isSplitTurn: cutPoint.isSplitTurn,
    tokensBefore,
    fileOps: fileOpsToLists(fileOps),
    settings,
  };
  if (prevCompaction) preparation.previousSummary = prevCompaction.summary;
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) {
    return {
      compactable: false,
      code: "nothing-to-summarize",
      reason: "Nothing to compact (session too small): no message other than the system prompt lies before the cut point",
      preparation,
    };
  }
  return { compactable: true, preparation };
}
