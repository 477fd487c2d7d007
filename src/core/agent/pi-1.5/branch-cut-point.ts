// pi 1.5.2's findProjectedCutPoint (projected-cut-point.ts) on a lazily read
// projection: the walk back from the newest entry parses only what it passes.
// Same result as findProjectedCutPoint(projection.entries, start, length, keep).

import type { CutPointResult } from "../../compaction/cut-points.js";
import { isObject, type ContextMessage } from "../../context/context-message.js";
import type { BranchProjection } from "./branch-projection.js";
import { estimateTokens } from "./estimate-tokens.js";
import { CUT_POINT_ROLES, isRecoveryOmissionSuffix, TURN_START_ROLES } from "./projected-cut-point.js";

const roleOf = (message: ContextMessage): unknown => (isObject(message) ? message.role : undefined);

function hasRole(projection: BranchProjection, k: number, roles: ReadonlySet<unknown>): boolean {
  if (projection.typeAt(k) === "compaction") return false;
  return projection.messagesAt(k).some((m) => roles.has(roleOf(m)));
}

export function findBranchProjectedCutPoint(projection: BranchProjection, startIndex: number, keepRecentTokens: number): CutPointResult {
  const end = projection.length;
  const isCutPoint = (k: number): boolean => hasRole(projection, k, CUT_POINT_ROLES);

  let accumulatedTokens = 0;
  let reachedAt = -1;
  for (let i = end - 1; i >= startIndex; i--) {
    const messageTokens = projection.messagesAt(i).reduce((sum, message) => sum + estimateTokens(message), 0);
    if (messageTokens === 0) continue;
    accumulatedTokens += messageTokens;
    if (accumulatedTokens >= keepRecentTokens) {
      reachedAt = i;
      break;
    }
  }
  const exceededBudget = reachedAt >= 0;

  // pi: over budget, the first cut point at or after that entry, else the last one; within budget, the first one.
  let cutIndex = -1;
  if (exceededBudget) {
    for (let k = reachedAt; k < end && cutIndex < 0; k++) if (isCutPoint(k)) cutIndex = k;
    for (let k = reachedAt - 1; k >= startIndex && cutIndex < 0; k--) if (isCutPoint(k)) cutIndex = k;
  } else {
    for (let k = startIndex; k < end && cutIndex < 0; k++) if (isCutPoint(k)) cutIndex = k;
  }
  if (cutIndex < 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };

  if (exceededBudget) {
    const suffix = [];
    for (let k = cutIndex + 1; k < end; k++) suffix.push(projection.entryAt(k));
    if (isRecoveryOmissionSuffix(suffix)) cutIndex++;
  }

  while (cutIndex > startIndex) {
    if (projection.typeAt(cutIndex - 1) === "compaction" || projection.messagesAt(cutIndex - 1).length > 0) break;
    cutIndex--;
  }

  const startsTurn = cutIndex < end && hasRole(projection, cutIndex, TURN_START_ROLES);
  let turnStartIndex = -1;
  if (!startsTurn) {
    for (let k = Math.min(cutIndex, end - 1); k >= startIndex && turnStartIndex < 0; k--) if (hasRole(projection, k, TURN_START_ROLES)) turnStartIndex = k;
  }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !startsTurn && turnStartIndex !== -1 };
}
