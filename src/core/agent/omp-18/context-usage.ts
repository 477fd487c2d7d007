// How full an omp session's context is, as omp's compaction trigger counts it
// (session-maintenance.ts): the last valid assistant usage after the latest
// compaction or `/clear` (calculateContextTokens), floored by the stored
// conversation — that assistant's `contextSnapshot.nonMessageTokens` (system
// prompt and tools, known only from the file) plus omp's estimate of the
// context messages without encrypted reasoning.

import type { ContextUsage } from "../../tokens/context-usage.js";
import type { BranchTokenView, ContextTokenRule } from "../../tokens/context-token-rule.js";
import type { SessionEntry } from "../../session/format/types.js";
import { ompBuildSessionContext, type OmpContextOptions } from "./build-session-context.js";
import type { OmpMessage } from "./messages.js";
import { isPlainCompaction } from "./context-path.js";
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

/**
 * Where ompContextUsage may start on a branch and give what it gives on the
 * whole branch: at the latest `/clear` when it is the latest boundary (omp's
 * context is what follows it); after a plain compaction (no provider replay,
 * no context rollover) at its kept range's first entry, or earlier at the
 * first `custom` entry after the latest `/clear` (omp's context notebook is
 * the newest one, looked for back to the `/clear`); else the whole branch.
 */
export function ompRecountStart(view: BranchTokenView): number {
  let reset = -1;
  let compaction = -1;
  for (let p = view.length - 1; p >= 0 && reset < 0; p--) {
    const type = view.typeAt(p);
    if (type === "reset_boundary") reset = p;
    else if (type === "compaction" && compaction < 0) compaction = p;
  }
  if (reset > compaction) return reset;
  if (compaction < 0) return 0;
  const keepFromId = view.tokensAt(compaction).reset?.keepFromId;
  if (keepFromId === undefined) return 0;
  const kept = view.positionOf(keepFromId);
  let start = kept >= 0 && kept < compaction ? kept : compaction;
  for (let p = reset + 1; p < start; p++) {
    if (view.typeAt(p) === "custom") {
      start = p;
      break;
    }
  }
  return start;
}

/** The token rule live views use for omp sessions: recounted from the path (from `ompRecountStart`; omp rewrites files in place anyway). */
export function ompContextTokenRule(options: OmpContextOptions, asLoaded: (entry: SessionEntry) => OmpMessage): ContextTokenRule {
  return {
    name: "omp-18",
    isUsageCandidate: (meta) => meta.type === "message" && meta.role === "assistant",
    isResetCandidate: (meta) => meta.type === "compaction" || meta.type === "reset_boundary",
    messagesFromMeta: () => undefined,
    entryTokens(entry) {
      const e = asLoaded(entry);
      if (e.type === "reset_boundary") return { messages: 0, estimate: 0, reset: { estimate: 0 } };
      if (e.type === "compaction") {
        // The kept range's first entry, for a compaction whose context is its summary, that range and what follows.
        return { messages: 0, estimate: 0, reset: isPlainCompaction(e) ? { estimate: 0, keepFromId: e.firstKeptEntryId } : { estimate: 0 } };
      }
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
    recountStart: ompRecountStart,
  };
}
