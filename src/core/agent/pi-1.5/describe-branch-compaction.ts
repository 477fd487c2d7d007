// pi 1.5.2's prepareCompaction (prepare-compaction.ts) as the `prepare --json`
// document, streamed over a lazily read branch like 0.73's
// (compaction/describe-branch-compaction.ts): the newest compaction, the trusted
// usage and the cut point read only the entries they need; the summarised
// history (and, when pi does not trust the last usage, every projected message
// for the estimate) is read once in file order and no parsed body is kept.

import { describedCompaction, type BranchPreparationJson } from "../../compaction/describe-branch-compaction.js";
import { addFileOpsFromDetails, createFileOps } from "../../compaction/file-ops.js";
import { TranscriptBuilder } from "../../compaction/transcript-builder.js";
import type { BranchReader } from "../../context/branch-reader.js";
import { isObject, type ContextMessage } from "../../context/context-message.js";
import type { CompactionSettings } from "../../settings/compaction-settings.js";
import { calculateContextTokens } from "../../tokens/context-tokens.js";
import { findBranchProjectedCutPoint } from "./branch-cut-point.js";
import { BranchProjection } from "./branch-projection.js";
import { convertToLlm } from "./convert-to-llm.js";
import { estimateTokens } from "./estimate-tokens.js";
import { extractFileOpsFromMessage } from "./file-ops.js";
import { getAssistantUsage } from "./projected-tokens.js";
import { serializeConversation } from "./serialize-conversation.js";
import { getCurrentSystemMessage } from "./system-message.js";

const isSystem = (message: ContextMessage): boolean => isObject(message) && message.role === "system";

/**
 * estimateProjectedContextTokens when pi trusts the last usage (its entry comes
 * after the branch's latest context_edit or compaction); undefined when the
 * estimate must count every projected message instead.
 */
function trustedUsageTokens(projection: BranchProjection, branch: BranchReader): number | undefined {
  let trailing = 0;
  for (let k = projection.length - 1; k >= 0; k--) {
    const messages = projection.messagesAt(k);
    for (let m = messages.length - 1; m >= 0; m--) {
      const usage = getAssistantUsage(messages[m]!);
      if (!usage) {
        trailing += estimateTokens(messages[m]!);
        continue;
      }
      const usageEntryId = branch.idAt(projection.positions[k]!);
      let usageEntryIndex = -1;
      if (usageEntryId) for (let i = 0; i < branch.length && usageEntryIndex < 0; i++) if (branch.idAt(i) === usageEntryId) usageEntryIndex = i;
      let latestInvalidating = -1;
      for (let i = branch.length - 1; i >= 0 && latestInvalidating < 0; i--) {
        const type = branch.typeAt(i);
        if (type === "context_edit" || type === "compaction") latestInvalidating = i;
      }
      return usageEntryIndex > latestInvalidating ? calculateContextTokens(usage) + trailing : undefined;
    }
  }
  return undefined;
}

export function describeBranchCompaction(branch: BranchReader, settings: CompactionSettings): BranchPreparationJson {
  const n = branch.length;
  if (n === 0) return { compactable: false, reason: "the branch has no entries", code: "empty-branch" };
  if (branch.typeAt(n - 1) === "compaction") {
    return { compactable: false, reason: `the leaf ${branch.idAt(n - 1)} is already a compaction`, code: "already-compacted" };
  }

  const projection = new BranchProjection(branch);
  // Only the newest compaction (projected first) contributes messages.
  const prevCompaction =
    projection.compaction && projection.typeAt(0) === "compaction" && projection.messagesAt(0).length > 0 ? projection.compaction : undefined;
  const boundaryStart = prevCompaction ? 1 : 0;
  const usageTokens = trustedUsageTokens(projection, branch);
  const cutPoint = findBranchProjectedCutPoint(projection, boundaryStart, settings.keepRecentTokens);
  const firstKept = cutPoint.firstKeptEntryIndex;
  const firstKeptEntryId = firstKept < projection.length ? branch.idAt(projection.positions[firstKept]!) : undefined;
  if (!firstKeptEntryId) {
    return firstKept < projection.length
      ? { compactable: false, reason: "the first kept entry has no id: the session needs migration to version 3", code: "needs-migration" }
      : { compactable: false, reason: "Nothing to compact (session too small)", code: "nothing-to-summarize" };
  }

  const fileOps = createFileOps();
  if (prevCompaction && !prevCompaction.fromHook && prevCompaction.details) addFileOpsFromDetails(prevCompaction.details, fileOps);
  const transcript = { convertToLlm, serializeConversation };
  const history = new TranscriptBuilder(transcript);
  const prefix = new TranscriptBuilder(transcript);
  const historyEnd = cutPoint.isSplitTurn ? cutPoint.turnStartIndex : firstKept;
  const prefixStart = cutPoint.isSplitTurn ? cutPoint.turnStartIndex : firstKept;
  // Without a trusted usage pi estimates the current system message plus every other projected message.
  const countAll = usageTokens === undefined;
  const systemMessages: ContextMessage[] = [];
  let estimated = 0;
  projection.forEach(countAll ? 0 : boundaryStart, countAll ? projection.length : firstKept, (k, messages) => {
    if (countAll) {
      for (const message of messages) {
        if (isSystem(message)) systemMessages.push(message);
        else estimated += estimateTokens(message);
      }
    }
    const builder = k >= boundaryStart && k < historyEnd ? history : k >= prefixStart && k < firstKept ? prefix : undefined;
    if (!builder || projection.typeAt(k) === "compaction") return;
    for (const message of messages) {
      if (isSystem(message)) continue;
      extractFileOpsFromMessage(message, fileOps);
      builder.add(message);
    }
  });
  let tokensBefore = usageTokens ?? estimated;
  if (countAll) {
    const currentSystem = getCurrentSystemMessage(systemMessages);
    if (currentSystem) tokensBefore += estimateTokens(currentSystem);
  }

  return describedCompaction(
    { history, prefix, fileOps, firstKeptEntryId, isSplitTurn: cutPoint.isSplitTurn, tokensBefore, prevCompaction },
    "Nothing to compact (session too small): no message other than the system prompt lies before the cut point",
  );
}
