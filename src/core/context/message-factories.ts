// pi's message factories (messages.js): how non-message entries become
// messages. The entry timestamp is an ISO string; the message gets Unix ms.

import type {
  BranchSummaryMessage,
  CompactionSummaryMessage,
  CustomMessage,
  CustomMessageEntry,
} from "../session/format/types.js";

export function createBranchSummaryMessage(summary: string, fromId: string, timestamp: string): BranchSummaryMessage {
  return {
    role: "branchSummary",
    summary,
    fromId,
    timestamp: new Date(timestamp).getTime(),
  };
}

export function createCompactionSummaryMessage(
  summary: string,
  tokensBefore: number,
  timestamp: string,
): CompactionSummaryMessage {
  return {
    role: "compactionSummary",
    summary,
    tokensBefore,
    timestamp: new Date(timestamp).getTime(),
  };
}

export function createCustomMessage(
  customType: string,
  content: CustomMessageEntry["content"],
  display: boolean,
  details: unknown,
  timestamp: string,
): CustomMessage {
  return {
    role: "custom",
    customType,
    content,
    display,
    details,
    timestamp: new Date(timestamp).getTime(),
  };
}
