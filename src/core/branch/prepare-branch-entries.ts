// pi's prepareBranchEntries (branch-summarization.js): the abandoned entries
// as messages under a token budget, newest first, plus the files they touched.

import type { SessionEntry } from "../session/format/types.js";
import type { ContextMessage } from "../context/context-message.js";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "../context/message-factories.js";
import { messageOf } from "../context/context-message.js";
import {
  addFileOpsFromDetails,
  createFileOps,
  extractFileOpsFromMessage,
  fileOpsToLists,
  type FileOperationLists,
} from "../compaction/file-ops.js";
import { estimateTokens } from "../tokens/estimate-tokens.js";

export interface PreparedBranchEntries {
  /** Oldest first. */
  messages: ContextMessage[];
  fileOps: FileOperationLists;
  totalTokens: number;
}

/** Tool results are left out (the call carries the context); compaction summaries are kept. */
export function getMessageFromBranchEntry(entry: SessionEntry): ContextMessage | undefined {
  switch (entry.type) {
    case "message": {
      const message = messageOf(entry);
      return message?.role === "toolResult" ? undefined : message;
    }
    case "custom_message":
      return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp);
    case "branch_summary":
      return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
    case "compaction":
      return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
    default:
      return undefined;
  }
}

/**
 * Fills `tokenBudget` (0 = no limit) from the newest entry back and stops at
 * the first message that does not fit; a summary entry that does not fit still
 * goes in while less than 90% of the budget is used. File operations come from
 * every entry's tool calls up to that stop, and from the details of every
 * branch summary pi wrote itself (not `fromHook`).
 */
export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): PreparedBranchEntries {
  const messages: ContextMessage[] = [];
  const fileOps = createFileOps();
  let totalTokens = 0;

  for (const entry of entries) {
    if (entry.type === "branch_summary" && !entry.fromHook && entry.details) addFileOpsFromDetails(entry.details, fileOps);
  }

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const message = getMessageFromBranchEntry(entry);
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps);
    const tokens = estimateTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      const isSummary = entry.type === "compaction" || entry.type === "branch_summary";
      if (isSummary && totalTokens < tokenBudget * 0.9) {
        messages.push(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.push(message);
    totalTokens += tokens;
  }

  return { messages: messages.reverse(), fileOps: fileOpsToLists(fileOps), totalTokens };
}
