// How pi's compact() (compaction.js) turns prepared data plus model answers
// into the compaction entry's fields, without the model calls themselves.

import type { ContextMessage } from "../context/context-message.js";
import { computeFileLists, formatFileOperations, type FileLists } from "./file-ops.js";
import type { CompactionPreparation } from "./prepare-compaction.js";
import { buildSummaryRequest, type SummaryRequest, type SummarySemantics } from "./summary-request.js";

/** pi's stand-in history summary when a split turn has nothing before it. */
export const NO_PRIOR_HISTORY = "No prior history.";

export interface SummaryCalls {
  /** Absent when pi would not call the model for the history (split turn with empty history). */
  history?: SummaryRequest;
  turnPrefix?: SummaryRequest;
}

export interface CompactionResult {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: FileLists;
}

/** The calls pi makes for a preparation: a turn-prefix call only for a split turn with prefix messages. */
export function planSummaryCalls(prep: CompactionPreparation, customInstructions?: string, semantics?: SummarySemantics): SummaryCalls {
  const history = (messages: readonly ContextMessage[]): SummaryRequest =>
    buildSummaryRequest({ messages, kind: "history", previousSummary: prep.previousSummary, customInstructions, semantics });
  if (prep.isSplitTurn && prep.turnPrefixMessages.length > 0) {
    const calls: SummaryCalls = {
      turnPrefix: buildSummaryRequest({ messages: prep.turnPrefixMessages, kind: "turnPrefix", customInstructions, semantics }),
    };
    if (prep.messagesToSummarize.length > 0) calls.history = history(prep.messagesToSummarize);
    return calls;
  }
  return { history: history(prep.messagesToSummarize) };
}

/** pi's merge of the two answers of a split turn. */
export function mergeSplitTurnSummary(historySummary: string, turnPrefixSummary: string): string {
  return `${historySummary}\n\n---\n\n**Turn Context (split turn):**\n\n${turnPrefixSummary}`;
}

/**
 * The entry fields pi writes: the history answer (or NO_PRIOR_HISTORY), merged
 * with the turn-prefix answer when there is one, then the file blocks.
 */
export function buildCompactionResult(
  prep: CompactionPreparation,
  answers: { history?: string; turnPrefix?: string },
): CompactionResult {
  let summary = answers.history ?? NO_PRIOR_HISTORY;
  if (answers.turnPrefix !== undefined) summary = mergeSplitTurnSummary(summary, answers.turnPrefix);
  const details = computeFileLists(prep.fileOps);
  summary += formatFileOperations(details.readFiles, details.modifiedFiles);
  return { summary, firstKeptEntryId: prep.firstKeptEntryId, tokensBefore: prep.tokensBefore, details };
}
