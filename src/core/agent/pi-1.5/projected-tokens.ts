// pi 1.5.2's token counts of a context (compaction/compaction.js): the last
// assistant usage plus estimates of what follows it, where an all-zero usage is
// no usage; and estimateProjectedContextTokens, which trusts that usage only when
// its entry comes after the branch's latest context_edit or compaction, and
// otherwise estimates the current system message plus every other message.

import { isObject, type ContextMessage } from "../../context/context-message.js";
import type { SessionEntry, Usage } from "../../session/format/types.js";
import { calculateContextTokens, estimateContextTokens as estimateContextTokensWith, type ContextTokenEstimate } from "../../tokens/context-tokens.js";
import { estimateTokens } from "./estimate-tokens.js";
import type { SessionProjection } from "./projection.js";
import { getCurrentSystemMessage } from "./system-message.js";

/** Usage of a completed answer; aborted, error and all-zero usage count as none. */
export function getAssistantUsage(message: ContextMessage): Usage | undefined {
  if (!isObject(message) || message.role !== "assistant" || !("usage" in message)) return undefined;
  if (message.stopReason === "aborted" || message.stopReason === "error") return undefined;
  if (!isObject(message.usage)) return undefined;
  const usage = message.usage as unknown as Usage;
  return calculateContextTokens(usage) > 0 ? usage : undefined;
}

/** pi 1.5.2's estimateContextTokens: its usage rule and its estimates. */
export function estimateContextTokens(messages: readonly ContextMessage[]): ContextTokenEstimate {
  return estimateContextTokensWith(messages, { usageOf: getAssistantUsage, estimate: estimateTokens });
}

/** The estimate without any usage: the current system message once, plus every non-system message. */
export function estimateProjectionWithoutUsage(messages: readonly ContextMessage[]): ContextTokenEstimate {
  const currentSystem = getCurrentSystemMessage(messages);
  let tokens = currentSystem ? estimateTokens(currentSystem) : 0;
  for (const message of messages) if (!isObject(message) || message.role !== "system") tokens += estimateTokens(message);
  return { tokens, usageTokens: 0, trailingTokens: tokens, lastUsageIndex: null };
}

export function estimateProjectedContextTokens(
  projection: Pick<SessionProjection, "entries" | "messages">,
  branchEntries: readonly SessionEntry[],
): ContextTokenEstimate {
  const estimate = estimateContextTokens(projection.messages);
  if (estimate.lastUsageIndex !== null) {
    let projectedMessageIndex = 0;
    let usageEntryId: string | undefined;
    for (const entry of projection.entries) {
      const nextMessageIndex = projectedMessageIndex + entry.messages.length;
      if (estimate.lastUsageIndex < nextMessageIndex) {
        usageEntryId = entry.sourceEntry.id;
        break;
      }
      projectedMessageIndex = nextMessageIndex;
    }
    const usageEntryIndex = usageEntryId ? branchEntries.findIndex((entry) => entry.id === usageEntryId) : -1;
    let latestInvalidatingEntryIndex = -1;
    for (let i = branchEntries.length - 1; i >= 0; i--) {
      const type = branchEntries[i]!.type;
      if (type === "context_edit" || type === "compaction") {
        latestInvalidatingEntryIndex = i;
        break;
      }
    }
    if (usageEntryIndex > latestInvalidatingEntryIndex) return estimate;
  }
  return estimateProjectionWithoutUsage(projection.messages);
}
