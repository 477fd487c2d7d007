// How full an omp session's context is, as omp's compaction trigger counts it
// (session-maintenance.ts): the last valid assistant usage after the latest
// compaction or `/clear` (calculateContextTokens), floored by the stored
// conversation — that assistant's `contextSnapshot.nonMessageTokens` (system
// prompt and tools, known only from the file) plus omp's estimate of the
// context messages without encrypted reasoning.

import type { ContextUsage } from "../../tokens/context-usage.js";
import type { ContextTokenRule } from "../../tokens/context-token-rule.js";
import type { SessionEntry } from "../../session/format/types.js";
import { ompBuildSessionContext, type OmpContextOptions } from "./build-session-context.js";
import type { OmpMessage } from "./messages.js";
import { assistantUsage, calculateContextTokens } from "./prepare-compaction.js";
import { countMessagesTokens } from "./tokenizer.js";

export function ompContextUsage(path: readonly OmpMessage[], options: OmpContextOptions = {}): ContextUsage {
  const { messages } = ompBuildSessionContext(path, options);
  let boundary = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    const type = path[i]!.type;
    if (type === "compaction" || type === "reset_boundary") {
      boundary = i;
      break;
    }
  }
  let usageTokens = 0;
  let nonMessageTokens = 0;
  let sawUsage = false;
  for (let i = path.length - 1; i > boundary; i--) {
    const entry = path[i]!;
    if (entry.type !== "message") continue;
    const usage = assistantUsage(entry.message);
    if (!usage) continue;
    usageTokens = calculateContextTokens(usage);
    const snapshot = entry.message.contextSnapshot;
    if (snapshot && typeof snapshot.nonMessageTokens === "number") nonMessageTokens = snapshot.nonMessageTokens;
    sawUsage = true;
    break;
  }
  const stored = nonMessageTokens + countMessagesTokens(messages, { excludeEncryptedReasoning: true });
  const tokens = Math.max(usageTokens, stored);
  const source = sawUsage && usageTokens >= stored ? "usage" : boundary >= 0 && !sawUsage ? "estimate-after-compaction" : "estimate";
  return { tokens, source, messageCount: messages.length };
}

/** The token rule live views use for omp sessions: recounted from the path (omp rewrites files in place anyway). */
export function ompContextTokenRule(options: OmpContextOptions, asLoaded: (entry: SessionEntry) => OmpMessage): ContextTokenRule {
  return {
    name: "omp-18",
    isUsageCandidate: (meta) => meta.type === "message" && meta.role === "assistant",
    isResetCandidate: (meta) => meta.type === "compaction" || meta.type === "reset_boundary",
    messagesFromMeta: () => undefined,
    entryTokens(entry) {
      const e = asLoaded(entry);
      if (e.type === "compaction" || e.type === "reset_boundary") return { messages: 0, estimate: 0, reset: { estimate: 0 } };
      const context = ompBuildSessionContext([e], options);
      const usage = e.type === "message" ? assistantUsage(e.message) : undefined;
      return {
        messages: context.messages.length,
        estimate: countMessagesTokens(context.messages, { excludeEncryptedReasoning: true }),
        ...(usage ? { usage: calculateContextTokens(usage) } : {}),
      };
    },
    usage: () => undefined,
    usageOfPath: (path) => ompContextUsage(path.map(asLoaded), options),
  };
}
