// pi's cut-point search (compaction.js): where a compaction may start keeping
// messages. Indices are into the `entries` array passed in (a root→leaf path).

import type { SessionEntry } from "../session/format/types.js";
import { messageOf } from "../context/context-message.js";
import { estimateTokens } from "../tokens/estimate-tokens.js";

export interface CutPointResult {
  /** Index of the first entry kept after the compaction. */
  firstKeptEntryIndex: number;
  /** When the cut splits a turn: index of the entry that started it, else -1. */
  turnStartIndex: number;
  isSplitTurn: boolean;
}

export const CUTTABLE_ROLES: ReadonlySet<string> = new Set([
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
  "user",
  "assistant",
]);

function roleOf(entry: SessionEntry): unknown {
  return entry.type === "message" ? messageOf(entry)?.role : undefined;
}

/**
 * Entries a compaction may cut at: messages of every role except toolResult
 * (a tool result must stay with its call), plus branch_summary and
 * custom_message entries. `endIndex` is exclusive.
 */
export function findValidCutPoints(entries: readonly SessionEntry[], startIndex: number, endIndex: number): number[] {
  const cutPoints: number[] = [];
  for (let i = Math.max(0, startIndex); i < Math.min(endIndex, entries.length); i++) {
    const entry = entries[i]!;
    const role = roleOf(entry);
    if (entry.type === "message" && typeof role === "string" && CUTTABLE_ROLES.has(role)) cutPoints.push(i);
    if (entry.type === "branch_summary" || entry.type === "custom_message") cutPoints.push(i);
  }
  return cutPoints;
}

/** The user message, bash run, branch summary or custom message that starts the turn holding `entryIndex`; -1 if none. */
export function findTurnStartIndex(entries: readonly SessionEntry[], entryIndex: number, startIndex: number): number {
  for (let i = Math.min(entryIndex, entries.length - 1); i >= Math.max(0, startIndex); i--) {
    const entry = entries[i]!;
    if (entry.type === "branch_summary" || entry.type === "custom_message") return i;
    const role = roleOf(entry);
    if (role === "user" || role === "bashExecution") return i;
  }
  return -1;
}

/**
 * Walks back from the newest entry summing message estimates until
 * `keepRecentTokens` is reached, cuts at the first valid cut point at or after
 * that entry, then pulls preceding non-message entries (settings, labels,
 * custom…) into the kept part, stopping at a message or a compaction.
 * Indices outside `entries` are clamped (pi would throw).
 */
export function findCutPoint(
  entries: readonly SessionEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const cutPoints = findValidCutPoints(entries, startIndex, endIndex);
  if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  let cutIndex = cutPoints[0]!;
  let accumulatedTokens = 0;
  for (let i = Math.min(endIndex, entries.length) - 1; i >= startIndex; i--) {
    const entry = entries[i]!;
    if (entry.type !== "message") continue;
    const message = messageOf(entry);
    accumulatedTokens += message ? estimateTokens(message) : 0;
    if (accumulatedTokens >= keepRecentTokens) {
      const atOrAfter = cutPoints.find((c) => c >= i);
      if (atOrAfter !== undefined) cutIndex = atOrAfter;
      break;
    }
  }

  while (cutIndex > startIndex) {
    const previous = entries[cutIndex - 1]!;
    if (previous.type === "compaction" || previous.type === "message") break;
    cutIndex--;
  }

  const isUserMessage = roleOf(entries[cutIndex]!) === "user";
  const turnStartIndex = isUserMessage ? -1 : findTurnStartIndex(entries, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !isUserMessage && turnStartIndex !== -1 };
}
