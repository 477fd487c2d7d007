// pi 1.5.2's findProjectedCutPoint (compaction/compaction.js): where a
// compaction starts keeping, over the projected entries (context edits applied).
// Against 0.73.1: every context-visible message counts toward the budget; when
// the budget is crossed the cut is the nearest valid cut point at or after that
// entry, else the last one (an oversized trailing tool result is cut at its
// call); a closed suffix of omitted recovery attempts moves the cut one on; the
// scan-back stops at any context-visible entry; any user-like message starts a turn.

import type { CutPointResult } from "../../compaction/cut-points.js";
import { isObject, messageOf, type ContextMessage } from "../../context/context-message.js";
import { estimateTokens } from "./estimate-tokens.js";
import { sessionEntryToContextMessages, type ProjectedEntry } from "./projection.js";

export const CUT_POINT_ROLES: ReadonlySet<unknown> = new Set([
  "user",
  "assistant",
  "bashExecution",
  "custom",
  "branchSummary",
  "compactionSummary",
]);
export const TURN_START_ROLES: ReadonlySet<unknown> = new Set(["user", "bashExecution", "custom", "branchSummary", "compactionSummary"]);

const roleOf = (message: ContextMessage): unknown => (isObject(message) ? message.role : undefined);

export function isProjectedTurnStart(entry: ProjectedEntry): boolean {
  if (entry.sourceEntry.type === "compaction") return false;
  return entry.messages.some((m) => TURN_START_ROLES.has(roleOf(m)));
}

function findProjectedTurnStartIndex(entries: readonly ProjectedEntry[], entryIndex: number, startIndex: number): number {
  for (let i = entryIndex; i >= startIndex; i--) if (isProjectedTurnStart(entries[i]!)) return i;
  return -1;
}

export function isRecoveryOmissionSuffix(suffix: readonly ProjectedEntry[]): boolean {
  const isIntrinsicallyVisible = (entry: ProjectedEntry): boolean =>
    entry.sourceEntry.type !== "context_edit" && sessionEntryToContextMessages(entry.sourceEntry).length > 0;
  const isOmitted = (entry: ProjectedEntry): boolean => isIntrinsicallyVisible(entry) && entry.messages.length === 0;
  const omittedSuffixIds = new Set(suffix.filter(isOmitted).map((entry) => entry.sourceEntry.id));
  const hasExternalReplacement = suffix.some(
    (entry) =>
      entry.sourceEntry.type === "context_edit" &&
      entry.sourceEntry.replacement !== null &&
      !omittedSuffixIds.has(entry.sourceEntry.targetId),
  );
  if (hasExternalReplacement) return false;
  const hasOmittedAssistant = suffix.some(
    (entry) => entry.sourceEntry.type === "message" && messageOf(entry.sourceEntry)?.role === "assistant" && isOmitted(entry),
  );
  return (
    hasOmittedAssistant &&
    suffix.every((entry) => entry.sourceEntry.type !== "compaction" && (!isIntrinsicallyVisible(entry) || isOmitted(entry)))
  );
}

export function findProjectedCutPoint(
  entries: readonly ProjectedEntry[],
  startIndex: number,
  endIndex: number,
  keepRecentTokens: number,
): CutPointResult {
  const cutPoints: number[] = [];
  for (let i = startIndex; i < endIndex; i++) {
    const entry = entries[i]!;
    if (entry.sourceEntry.type !== "compaction" && entry.messages.some((m) => CUT_POINT_ROLES.has(roleOf(m)))) cutPoints.push(i);
  }
  if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  let accumulatedTokens = 0;
  let exceededBudget = false;
  let cutIndex = cutPoints[0]!;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const messageTokens = entries[i]!.messages.reduce((sum, message) => sum + estimateTokens(message), 0);
    if (messageTokens === 0) continue;
    accumulatedTokens += messageTokens;
    if (accumulatedTokens >= keepRecentTokens) {
      exceededBudget = true;
      cutIndex = cutPoints.find((candidate) => candidate >= i) ?? cutPoints[cutPoints.length - 1]!;
      break;
    }
  }

  if (exceededBudget && isRecoveryOmissionSuffix(entries.slice(cutIndex + 1, endIndex))) cutIndex++;

  while (cutIndex > startIndex) {
    const previous = entries[cutIndex - 1]!;
    if (previous.sourceEntry.type === "compaction" || previous.messages.length > 0) break;
    cutIndex--;
  }

  const cutEntry = entries[cutIndex];
  const startsTurn = cutEntry !== undefined && isProjectedTurnStart(cutEntry);
  const turnStartIndex = startsTurn ? -1 : findProjectedTurnStartIndex(entries, Math.min(cutIndex, entries.length - 1), startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
