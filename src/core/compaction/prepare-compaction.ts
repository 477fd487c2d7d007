// pi 0.73.1's prepareCompaction (compaction.js): what a compaction of the
// branch `pathEntries` (root→leaf) would summarise and keep, without calling a
// model. History starts at the previous compaction's firstKeptEntryId (0.73
// semantics, pi issue #2608), file operations carry over from the previous
// compaction's details unless a hook wrote it.

import type { CompactionEntry, SessionEntry } from "../session/format/types.js";
import { buildSessionContext } from "../context/build-session-context.js";
import type { ContextMessage } from "../context/context-message.js";
import type { CompactionSettings } from "../settings/compaction-settings.js";
import { estimateContextTokens } from "../tokens/context-tokens.js";
import { findCutPoint } from "./cut-points.js";
import { getMessageFromEntryForCompaction } from "./entry-message.js";
import {
  addFileOpsFromDetails,
  createFileOps,
  extractFileOpsFromMessage,
  fileOpsToLists,
  type FileOperationLists,
} from "./file-ops.js";

/** pi's CompactionPreparation in JSON-friendly form (file operations as arrays, not Sets). */
export interface CompactionPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: ContextMessage[];
  turnPrefixMessages: ContextMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperationLists;
  settings: CompactionSettings;
}

export type NotCompactableCode = "empty-branch" | "already-compacted" | "needs-migration" | "nothing-to-summarize";

export type CompactionPlan =
  | { compactable: true; preparation: CompactionPreparation }
  | { compactable: false; code: NotCompactableCode; reason: string; preparation?: CompactionPreparation };

/** Same decision as pi: undefined when the leaf is a compaction or the kept entry has no id. */
export function prepareCompaction(
  pathEntries: readonly SessionEntry[],
  settings: CompactionSettings,
): CompactionPreparation | undefined {
  return planCompaction(pathEntries, settings).preparation;
}

/**
 * pi's preparation plus why a branch cannot be compacted. Beyond pi, a
 * preparation with nothing to summarise (no history and no turn prefix) is
 * reported as not compactable: pi would call the model on an empty conversation.
 */
export function planCompaction(pathEntries: readonly SessionEntry[], settings: CompactionSettings): CompactionPlan {
  if (pathEntries.length === 0) {
    return { compactable: false, code: "empty-branch", reason: "the branch has no entries" };
  }
  const leaf = pathEntries[pathEntries.length - 1]!;
  if (leaf.type === "compaction") {
    return { compactable: false, code: "already-compacted", reason: `the leaf ${leaf.id} is already a compaction` };
  }

  let prevCompactionIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    if (pathEntries[i]!.type === "compaction") {
      prevCompactionIndex = i;
      break;
    }
  }
  const prevCompaction =
    prevCompactionIndex >= 0 ? (pathEntries[prevCompactionIndex] as CompactionEntry) : undefined;
  let boundaryStart = 0;
  if (prevCompaction) {
    const firstKeptIndex = pathEntries.findIndex((e) => e.id === prevCompaction.firstKeptEntryId);
    boundaryStart = firstKeptIndex >= 0 ? firstKeptIndex : prevCompactionIndex + 1;
  }

  const tokensBefore = estimateContextTokens(buildSessionContext(pathEntries).messages).tokens;
  const cutPoint = findCutPoint(pathEntries, boundaryStart, pathEntries.length, settings.keepRecentTokens);
  const firstKeptEntry = pathEntries[cutPoint.firstKeptEntryIndex];
  if (!firstKeptEntry?.id) {
    return {
      compactable: false,
      code: "needs-migration",
      reason: "the first kept entry has no id: the session needs migration to version 3",
    };
  }

  const historyEnd = cutPoint.isSplitTurn ? cutPoint.turnStartIndex : cutPoint.firstKeptEntryIndex;
  const messagesToSummarize = messagesBetween(pathEntries, boundaryStart, historyEnd);
  const turnPrefixMessages = cutPoint.isSplitTurn
    ? messagesBetween(pathEntries, cutPoint.turnStartIndex, cutPoint.firstKeptEntryIndex)
    : [];

  const fileOps = createFileOps();
  if (prevCompaction && !prevCompaction.fromHook && prevCompaction.details) {
    addFileOpsFromDetails(prevCompaction.details, fileOps);
  }
  for (const msg of messagesToSummarize) extractFileOpsFromMessage(msg, fileOps);
  for (const msg of turnPrefixMessages) extractFileOpsFromMessage(msg, fileOps);

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
      reason: "nothing lies before the cut point: every message is within keepRecentTokens",
      preparation,
    };
  }
  return { compactable: true, preparation };
}

function messagesBetween(entries: readonly SessionEntry[], start: number, end: number): ContextMessage[] {
  const messages: ContextMessage[] = [];
  for (let i = start; i < end; i++) {
    const msg = getMessageFromEntryForCompaction(entries[i]!);
    if (msg) messages.push(msg);
  }
  return messages;
}
