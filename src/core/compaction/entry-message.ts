// pi's getMessageFromEntry / getMessageFromEntryForCompaction (compaction.js):
// the message an entry contributes when it is summarised.

import type { SessionEntry } from "../session/format/types.js";
import { messageOf, type ContextMessage } from "../context/context-message.js";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "../context/message-factories.js";

export function getMessageFromEntry(entry: SessionEntry): ContextMessage | undefined {
  switch (entry.type) {
    case "message":
      return messageOf(entry);
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

/** Compaction entries are left out: the previous summary travels separately. */
export function getMessageFromEntryForCompaction(entry: SessionEntry): ContextMessage | undefined {
  return entry.type === "compaction" ? undefined : getMessageFromEntry(entry);
}
