// How full the context is (compaction.js): the last valid assistant usage plus
// estimates of what came after it.

import type { SessionEntry, Usage } from "../session/format/types.js";
import { isObject, messageOf, type ContextMessage } from "../context/context-message.js";
import { estimateTokens } from "./estimate-tokens.js";

/**
 * pi: `totalTokens`, else the sum of the four components. A field that is not a
 * number counts as 0 (pi would return NaN or the junk value itself).
 */
export function calculateContextTokens(usage: Usage): number {
  const n = (value: unknown): number => (typeof value === "number" ? value : 0);
  return n(usage.totalTokens) || n(usage.input) + n(usage.output) + n(usage.cacheRead) + n(usage.cacheWrite);
}

/** Usage of an assistant answer that completed (aborted and error answers carry no valid usage). */
export function getAssistantUsage(message: ContextMessage): Usage | undefined {
  if (!isObject(message) || message.role !== "assistant" || !("usage" in message)) return undefined;
  if (message.stopReason === "aborted" || message.stopReason === "error") return undefined;
  return isObject(message.usage) ? (message.usage as unknown as Usage) : undefined;
}

export function getLastAssistantUsage(entries: readonly SessionEntry[]): Usage | undefined {
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    if (entry.type !== "message") continue;
    const message = messageOf(entry);
    const usage = message ? getAssistantUsage(message) : undefined;
    if (usage) return usage;
  }
  return undefined;
}

export interface ContextTokenEstimate {
  tokens: number;
  usageTokens: number;
  trailingTokens: number;
  /** Index in the messages of the assistant whose usage was used; null when none has usage. */
  lastUsageIndex: number | null;
}

/** How a pi version reads one message: the usage it trusts, and its estimate. */
export interface TokenCounting {
  usageOf(message: ContextMessage): Usage | undefined;
  estimate(message: ContextMessage): number;
}

const PI_0_73_COUNTING: TokenCounting = { usageOf: (m) => getAssistantUsage(m), estimate: (m) => estimateTokens(m) };

/** pi's estimateContextTokens: the last trusted usage plus estimates of what follows it (both versions; `counting` differs). */
export function estimateContextTokens(messages: readonly ContextMessage[], counting: TokenCounting = PI_0_73_COUNTING): ContextTokenEstimate {
  const { usageOf, estimate: estimateTokens } = counting;
  let lastUsageIndex = -1;
  let usage: Usage | undefined;
  for (let i = messages.length - 1; i >= 0; i--) {
    usage = usageOf(messages[i]!);
    if (usage) {
      lastUsageIndex = i;
      break;
    }
  }
  if (!usage) {
    let estimated = 0;
    for (const message of messages) estimated += estimateTokens(message);
    return { tokens: estimated, usageTokens: 0, trailingTokens: estimated, lastUsageIndex: null };
  }
  const usageTokens = calculateContextTokens(usage);
  let trailingTokens = 0;
  for (let i = lastUsageIndex + 1; i < messages.length; i++) trailingTokens += estimateTokens(messages[i]!);
  return { tokens: usageTokens + trailingTokens, usageTokens, trailingTokens, lastUsageIndex };
}
