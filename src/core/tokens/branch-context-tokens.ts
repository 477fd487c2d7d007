// pi 0.73.1's estimateContextTokens(buildSessionContext(path).messages) on a
// branch read lazily: the context's messages are walked from the newest back to
// the last assistant usage pi trusts, so usually only the last few bodies are
// parsed (all of them only when no answer carries a usage).

import type { BranchReader } from "../context/branch-reader.js";
import { contextMessageOf } from "../context/build-session-context.js";
import type { ContextMessage } from "../context/context-message.js";
import { createCompactionSummaryMessage } from "../context/message-factories.js";
import type { CompactionEntry } from "../session/format/types.js";
import { calculateContextTokens, getAssistantUsage } from "./context-tokens.js";
import { estimateTokens } from "./estimate-tokens.js";

/** Entry types that can add a message to the 0.73 context (contextMessageOf). */
const CONTEXT_TYPES: ReadonlySet<string> = new Set(["message", "custom_message", "branch_summary"]);

/** Positions of the branch that make up the context, oldest first, as runs [start, end). */
function contextRuns(branch: BranchReader, compactionAt: number, compaction: CompactionEntry): [number, number][] {
  // pi looks the compaction up by id (first match), not by position.
  let compactionIndex = -1;
  for (let i = 0; i < branch.length && compactionIndex < 0; i++) {
    if (branch.typeAt(i) === "compaction" && branch.idAt(i) === compaction.id) compactionIndex = i;
  }
  if (compactionIndex < 0) compactionIndex = compactionAt;
  let keptFrom = compactionIndex;
  for (let i = 0; i < compactionIndex; i++) {
    if (branch.idAt(i) === compaction.firstKeptEntryId) {
      keptFrom = i;
      break;
    }
  }
  return [
    [keptFrom, compactionIndex],
    [compactionIndex + 1, branch.length],
  ];
}

export function branchContextTokens(branch: BranchReader): number {
  let compactionAt = -1;
  for (let i = branch.length - 1; i >= 0 && compactionAt < 0; i--) if (branch.typeAt(i) === "compaction") compactionAt = i;
  const compaction = compactionAt >= 0 ? (branch.entry(compactionAt) as CompactionEntry) : undefined;
  const runs: [number, number][] = compaction ? contextRuns(branch, compactionAt, compaction) : [[0, branch.length]];

  // Newest first: estimates add up until the message whose usage pi trusts.
  let trailing = 0;
  const take = (message: ContextMessage): number | undefined => {
    const usage = getAssistantUsage(message);
    if (usage) return calculateContextTokens(usage) + trailing;
    trailing += estimateTokens(message);
    return undefined;
  };
  for (let r = runs.length - 1; r >= 0; r--) {
    const [start, end] = runs[r]!;
    for (let i = end - 1; i >= start; i--) {
      if (!CONTEXT_TYPES.has(branch.typeAt(i))) continue;
      const message = contextMessageOf(branch.entry(i));
      if (!message) continue;
      const tokens = take(message);
      if (tokens !== undefined) return tokens;
    }
  }
  if (compaction) {
    const tokens = take(createCompactionSummaryMessage(compaction.summary, compaction.tokensBefore, compaction.timestamp));
    if (tokens !== undefined) return tokens;
  }
  return trailing;
}
