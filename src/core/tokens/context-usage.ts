// How full the context of a branch is, as a sidebar or status bar shows it.
// pi (getContextUsage) reports "unknown" after a compaction until the model
// answers again, because the last usage still counts the compacted messages;
// we fall back to the per-message estimate then, and say which one it is.

import { buildContextFromPath } from "../context/build-session-context.js";
import type { SessionEntry } from "../session/format/types.js";
import { calculateContextTokens, estimateContextTokens, getAssistantUsage } from "./context-tokens.js";
import { estimateTokens } from "./estimate-tokens.js";

export type ContextTokenSource = "usage" | "estimate" | "estimate-after-compaction";

export interface ContextUsage {
  tokens: number;
  source: ContextTokenSource;
  /** Messages the model would see. */
  messageCount: number;
}

function hasUsageAfterLatestCompaction(path: readonly SessionEntry[]): boolean | undefined {
  let compactionIndex = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      compactionIndex = i;
      break;
    }
  }
  if (compactionIndex === -1) return undefined;
  // pi checks only the newest assistant answer that is not aborted or an error.
  for (let i = path.length - 1; i > compactionIndex; i--) {
    const entry = path[i]!;
    if (entry.type !== "message") continue;
    const usage = getAssistantUsage(entry.message as never);
    if (usage) return calculateContextTokens(usage) > 0;
  }
  return false;
}

export function contextUsage(path: readonly SessionEntry[]): ContextUsage {
  const { messages } = buildContextFromPath(path);
  if (hasUsageAfterLatestCompaction(path) === false) {
    let tokens = 0;
    for (const message of messages) tokens += estimateTokens(message);
    return { tokens, source: "estimate-after-compaction", messageCount: messages.length };
  }
  const estimate = estimateContextTokens(messages);
  return { tokens: estimate.tokens, source: estimate.lastUsageIndex === null ? "estimate" : "usage", messageCount: messages.length };
}
