// pi 1.5.2's context token rule for live facts and the catalogue, built on the
// v1_5 functions (projection, estimateTokens, getAssistantUsage, contextUsage).
// Both a compaction and a context_edit reset: usage before them does not count,
// and what the projection holds then depends on edits and on the compaction's
// kept range. So the view answers only a branch without resets that has a
// usage; `extend` carries a known result over plain appends; everything else is
// `usageOfPath` (= v1_5 contextUsage, proven equal to pi 1.5.2) on the branch
// from `recountStart`: the latest compaction's kept range on (after a compaction
// that is its few kept entries) — except on a branch without a compaction, where
// `running` keeps pi's pure projected estimate as a sum that edits adjust.

import { createCompactionSummaryMessage } from "../../context/message-factories.js";
import { calculateContextTokens } from "../../tokens/context-tokens.js";
import { contextMessagesFromMeta, type ContextTokenRule, type EntryTokens } from "../../tokens/context-token-rule.js";
import { contextUsage } from "./context-usage.js";
import { estimateTokens } from "./estimate-tokens.js";
import { getAssistantUsage } from "./projected-tokens.js";
import { sessionEntryToContextMessages } from "./projection.js";
import { RunningProjectedEstimate } from "./running-projected-estimate.js";

/** EntryTokens of a pi 1.5 entry, plus whether it adds a system message (which changes the pure estimate's current system message). */
export interface Pi15EntryTokens extends EntryTokens {
  system?: true;
}

export const pi15ContextTokenRule: ContextTokenRule = {
  name: "pi-1.5",
  isUsageCandidate: (meta) => meta.type === "message" && meta.role === "assistant",
  isResetCandidate: (meta) => meta.type === "compaction" || meta.type === "context_edit",
  messagesFromMeta: contextMessagesFromMeta,
  entryTokens(entry) {
    if (entry.type === "compaction") {
      const summary = createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
      const keepFromId = typeof entry.firstKeptEntryId === "string" ? entry.firstKeptEntryId : undefined;
      return { messages: 0, estimate: 0, reset: { estimate: estimateTokens(summary), keepFromId } };
    }
    if (entry.type === "context_edit") return { messages: 0, estimate: 0, reset: { estimate: 0 } };
    const messages = sessionEntryToContextMessages(entry);
    if (messages.length === 0) return { messages: 0, estimate: 0 };
    const out: Pi15EntryTokens = { messages: messages.length, estimate: 0 };
    for (const message of messages) {
      out.estimate += estimateTokens(message);
      if (message.role === "system") out.system = true;
      const usage = getAssistantUsage(message);
      if (usage) out.usage = calculateContextTokens(usage);
    }
    return out;
  },
  usage(view) {
    // Without a compaction or context_edit the projection is the branch's messages, and
    // estimateContextTokens counts every message after the last usage (system ones too).
    const u = view.lastUsage;
    if (view.lastReset >= 0 || u < 0) return undefined;
    return { tokens: view.tokensAt(u).usage! + view.estimateSum(u + 1, view.length), source: "usage", messageCount: view.messageCount(0, view.length) };
  },
  usageOfPath: (path) => contextUsage(path),
  recountStart(view) {
    // pi 1.5 projects the latest compaction, the entries it keeps (from
    // firstKeptEntryId) and what follows; context edits, usage and resets count
    // only inside that range (found by id, unique here), so nothing before it
    // matters. Without a compaction the projection is the whole branch.
    const c = view.lastCompaction;
    if (c < 0) return 0;
    const keepFromId = view.tokensAt(c).reset?.keepFromId;
    const k = keepFromId !== undefined ? view.positionOf(keepFromId) : -1;
    return k >= 0 && k < c ? k : c;
  },
  running: {
    // Without a compaction, and with no usage after the latest context edit, pi
    // estimates the whole projection: a running sum that edits adjust.
    applies: (view) => view.lastCompaction < 0 && (view.lastUsage < 0 || view.lastUsage < view.lastReset),
    // The next context edit makes it apply while no compaction is on the branch.
    mayApplyLater: (view) => view.lastCompaction < 0,
    create: (branch) => new RunningProjectedEstimate(branch),
  },
  extend(previous, added) {
    if (added.some((a) => a.reset)) return undefined;
    const messageCount = previous.usage.messageCount + added.reduce((n, a) => n + a.messages, 0);
    const sum = (from: number) => added.slice(from).reduce((n, a) => n + a.estimate, 0);
    for (let i = added.length - 1; i >= 0; i--) {
      // A new answer comes after every reset: pi trusts it (and it answers any compaction).
      if (added[i]!.usage !== undefined) return { tokens: added[i]!.usage! + sum(i + 1), source: "usage", messageCount };
    }
    if (previous.usage.source === "usage") return { tokens: previous.usage.tokens + sum(0), source: "usage", messageCount };
    // The pure estimate counts the current system message once: a new one changes it.
    if (added.some((a) => (a as Pi15EntryTokens).system)) return undefined;
    return { tokens: previous.usage.tokens + sum(0), source: previous.usage.source, messageCount };
  },
};
