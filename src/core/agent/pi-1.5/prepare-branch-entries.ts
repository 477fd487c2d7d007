// pi 1.5.2's prepareBranchEntries (compaction/branch-summarization.js): 0.73.1's
// newest-first walk under a token budget, with the latest context edit of each
// collected entry applied (an omitted entry is skipped), 1.5's token estimates
// (system messages cost tokens) and nested-call file operations.

import type { PreparedBranchEntries } from "../../branch/prepare-branch-entries.js";
import { addFileOpsFromDetails, createFileOps, fileOpsToLists } from "../../compaction/file-ops.js";
import { messageOf, type ContextMessage } from "../../context/context-message.js";
import {
  createBranchSummaryMessage,
  createCompactionSummaryMessage,
  createCustomMessage,
} from "../../context/message-factories.js";
import type { ContextEditEntry, SessionEntry } from "../../session/format/types.js";
import { estimateTokens } from "./estimate-tokens.js";
import { extractFileOpsFromMessage } from "./file-ops.js";
import { projectContextEntry } from "./projection.js";

function getMessageFromEntry(entry: SessionEntry, edit: ContextEditEntry | undefined): ContextMessage | undefined {
  switch (entry.type) {
    case "message": {
      const message = messageOf(entry);
      if (!message || message.role === "toolResult") return undefined;
      return edit ? projectContextEntry(entry, edit)[0] : message;
    }
    case "custom_message":
      if (edit) return projectContextEntry(entry, edit)[0];
      return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp);
    case "branch_summary":
      return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
    case "compaction":
      return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
    default:
      return undefined;
  }
}

export function prepareBranchEntries(entries: readonly SessionEntry[], tokenBudget = 0): PreparedBranchEntries {
  const messages: ContextMessage[] = [];
  const fileOps = createFileOps();
  let totalTokens = 0;

  for (const entry of entries) {
    if (entry.type === "branch_summary" && !entry.fromHook && entry.details) addFileOpsFromDetails(entry.details, fileOps);
  }
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of entries) if (entry.type === "context_edit") edits.set(entry.targetId, entry);

  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const message = getMessageFromEntry(entry, edits.get(entry.id));
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
