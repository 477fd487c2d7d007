// pi 0.73.1's cut-point search (cut-points.ts) on a branch read lazily: the
// walk back from the newest entry parses only the entries it passes (about
// keepRecentTokens' worth), entry types come from the index. Same result as
// findCutPoint(path, start, path.length, keepRecentTokens).

import { messageOf } from "../context/context-message.js";
import type { BranchReader } from "../context/branch-reader.js";
import type { MessageEntry } from "../session/format/types.js";
import { estimateTokens } from "../tokens/estimate-tokens.js";
import { CUTTABLE_ROLES, type CutPointResult } from "./cut-points.js";

function roleAt(branch: BranchReader, i: number): unknown {
  return branch.typeAt(i) === "message" ? messageOf(branch.entry(i) as MessageEntry)?.role : undefined;
}

function isValidCutPoint(branch: BranchReader, i: number): boolean {
  const type = branch.typeAt(i);
  if (type === "branch_summary" || type === "custom_message") return true;
  const role = roleAt(branch, i);
  return type === "message" && typeof role === "string" && CUTTABLE_ROLES.has(role);
}

/** The first valid cut point in [from, end), -1 if none. */
function firstCutPointFrom(branch: BranchReader, from: number, end: number): number {
  for (let i = from; i < end; i++) if (isValidCutPoint(branch, i)) return i;
  return -1;
}

/** pi's findTurnStartIndex. */
export function branchTurnStartIndex(branch: BranchReader, entryIndex: number, startIndex: number): number {
  for (let i = Math.min(entryIndex, branch.length - 1); i >= Math.max(0, startIndex); i--) {
    const type = branch.typeAt(i);
    if (type === "branch_summary" || type === "custom_message") return i;
    const role = roleAt(branch, i);
    if (role === "user" || role === "bashExecution") return i;
  }
  return -1;
}

/** pi's findCutPoint(entries, startIndex, entries.length, keepRecentTokens). */
export function findBranchCutPoint(branch: BranchReader, startIndex: number, keepRecentTokens: number): CutPointResult {
  const end = branch.length;
  const start = Math.max(0, startIndex);
  let reachedAt = -1;
  let accumulatedTokens = 0;
  for (let i = end - 1; i >= startIndex; i--) {
    if (branch.typeAt(i) !== "message") continue;
    const message = messageOf(branch.entry(i) as MessageEntry);
    accumulatedTokens += message ? estimateTokens(message) : 0;
    if (accumulatedTokens >= keepRecentTokens) {
      reachedAt = i;
      break;
    }
  }

  // pi takes the first cut point at or after where the budget ran out, else the first of all.
  let cutIndex = reachedAt >= 0 ? firstCutPointFrom(branch, Math.max(start, reachedAt), end) : -1;
  if (cutIndex < 0) {
    cutIndex = firstCutPointFrom(branch, start, end);
    if (cutIndex < 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  }

  while (cutIndex > startIndex) {
    const previous = branch.typeAt(cutIndex - 1);
    if (previous === "compaction" || previous === "message") break;
    cutIndex--;
  }

  const isUserMessage = roleAt(branch, cutIndex) === "user";
  const turnStartIndex = isUserMessage ? -1 : branchTurnStartIndex(branch, cutIndex, startIndex);
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !isUserMessage && turnStartIndex !== -1 };
}
