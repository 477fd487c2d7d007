// How full the context is under pi 1.5.2 (agent-session.js getContextUsage):
// after a compaction, pi reports "unknown" until an assistant answers with
// usage; we show the pure projected estimate then and say so. Otherwise
// estimateProjectedContextTokens.

import { isObject } from "../../context/context-message.js";
import type { SessionEntry } from "../../session/format/types.js";
import type { ContextUsage } from "../../tokens/context-usage.js";
import { estimateProjectedContextTokens, estimateProjectionWithoutUsage, getAssistantUsage } from "./projected-tokens.js";
import { buildSessionProjection } from "./projection.js";

export function contextUsage(path: readonly SessionEntry[]): ContextUsage {
  const projection = buildSessionProjection(path);
  const messageCount = projection.messages.length;
  let compactionIndex = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      compactionIndex = i;
      break;
    }
  }
  if (compactionIndex >= 0) {
    const answered = new Set(
      projection.entries
        .filter((entry) => entry.messages.some((m) => isObject(m) && m.role === "assistant" && getAssistantUsage(m) !== undefined))
        .map((entry) => entry.sourceEntry.id),
    );
    // pi finds the compaction by id (first match).
    const at = path.findIndex((entry) => entry.id === path[compactionIndex]!.id);
    if (!path.slice(at + 1).some((entry) => answered.has(entry.id))) {
      return { tokens: estimateProjectionWithoutUsage(projection.messages).tokens, source: "estimate-after-compaction", messageCount };
    }
  }
  const estimate = estimateProjectedContextTokens(projection, path);
  return { tokens: estimate.tokens, source: estimate.lastUsageIndex === null ? "estimate" : "usage", messageCount };
}
