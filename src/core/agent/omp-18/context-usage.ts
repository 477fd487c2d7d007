// How full an omp session's context is, as omp's compaction trigger counts it
// (session-maintenance.ts): the last valid assistant usage after the latest
// compaction or `/clear` (calculateContextTokens), floored by the stored
// conversation — that assistant's `contextSnapshot.nonMessageTokens` (system
// prompt and tools, known only from the file) plus omp's estimate of the
// context messages without encrypted reasoning.

import type { ContextUsage } from "../../tokens/context-usage.js";
import { ompBuildSessionContext, type OmpContextOptions } from "./build-session-context.js";
import type { OmpMessage } from "./messages.js";
import { assistantUsage, calculateContextTokens } from "./prepare-compaction.js";
import { countMessagesTokens } from "./tokenizer.js";

export function ompContextUsage(path: readonly OmpMessage[], options: OmpContextOptions = {}): ContextUsage {
  const { messages } = ompBuildSessionContext(path, options);
  return combineOmpUsage(ompUsageFacts(path), countMessagesTokens(messages, { excludeEncryptedReasoning: true }), messages.length);
}

/** What ompContextUsage reads of a path besides the context's messages. */
export interface OmpUsageFacts {
  /** A compaction or `/clear` is on the path. */
  hasBoundary: boolean;
  /** The last valid assistant usage after the latest boundary (calculateContextTokens), 0 when none. */
  usageTokens: number;
  /** That answer's `contextSnapshot.nonMessageTokens`, 0 when it has none. */
  nonMessageTokens: number;
  sawUsage: boolean;
}

export function ompUsageFacts(path: readonly OmpMessage[]): OmpUsageFacts {
  let boundary = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    const type = path[i]!.type;
    if (type === "compaction" || type === "reset_boundary") {
      boundary = i;
      break;
    }
  }
  const facts: OmpUsageFacts = { hasBoundary: boundary >= 0, usageTokens: 0, nonMessageTokens: 0, sawUsage: false };
  for (let i = path.length - 1; i > boundary; i--) if (noteUsage(facts, path[i]!)) break;
  return facts;
}

/** Takes the entry's usage into `facts` when it is a valid assistant usage (the later one wins); whether it was. */
export function noteUsage(facts: OmpUsageFacts, entry: OmpMessage): boolean {
  if (entry.type !== "message") return false;
  const usage = assistantUsage(entry.message);
  if (!usage) return false;
  facts.usageTokens = calculateContextTokens(usage);
  const snapshot = entry.message.contextSnapshot;
  facts.nonMessageTokens = snapshot && typeof snapshot.nonMessageTokens === "number" ? snapshot.nonMessageTokens : 0;
  facts.sawUsage = true;
  return true;
}

/** omp's count: the usage floored by the stored conversation (`messageTokens`: omp's estimate of the context messages). */
export function combineOmpUsage(facts: OmpUsageFacts, messageTokens: number, messageCount: number): ContextUsage {
  const { usageTokens, sawUsage } = facts;
  const stored = facts.nonMessageTokens + messageTokens;
  const tokens = Math.max(usageTokens, stored);
  const source = sawUsage && usageTokens >= stored ? "usage" : facts.hasBoundary && !sawUsage ? "estimate-after-compaction" : "estimate";
  return { tokens, source, messageCount };
}
