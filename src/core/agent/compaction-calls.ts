// The model calls of a compaction, as pi makes them (planSummaryCalls: the
// history call, and for a split turn the turn-prefix call), with what
// pi-sessions adds: a custom prompt file replacing pi's history instructions,
// the focus text on the prefix call too (pi bug #9348, in buildSummaryRequest),
// the span's files-touched list as an authoritative block, and the previous
// summary without the manifest block we appended to it (it would be copied).
// The spans and requests follow the session's pi version (1.5: on the
// projection, its prompts and serialisation).

import type { CompactionEntry, SessionEntry } from "../session/format/types.js";
import {
  findCutPoint,
  planSummaryCalls,
  SUMMARIZATION_PROMPT,
  UPDATE_SUMMARIZATION_PROMPT,
  type CompactionPreparation,
  type SummaryRequest,
} from "../compaction/index.js";
import { stripManifest } from "../files-touched/index.js";
import type { AgentSemantics } from "./agent-semantics.js";
import { findProjectedCutPoint } from "./pi-1.5/projected-cut-point.js";
import { buildSessionProjection } from "./pi-1.5/projection.js";

export interface CompactionSpans {
  /** Entries whose messages the history call summarises. */
  history: SessionEntry[];
  /** Entries of the split turn's prefix (empty unless split). */
  turnPrefix: SessionEntry[];
}

/** pi 1.5: the same boundaries on the projection (entries an edit omits contribute nothing anyway). */
function projectedSpans(pathEntries: readonly SessionEntry[], prep: CompactionPreparation): CompactionSpans {
  const projected = buildSessionProjection(pathEntries).entries;
  const prev = projected.findIndex((e) => e.sourceEntry.type === "compaction" && e.messages.length > 0);
  const start = prev >= 0 ? prev + 1 : 0;
  const cut = findProjectedCutPoint(projected, start, projected.length, prep.settings.keepRecentTokens);
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const sources = (from: number, to: number): SessionEntry[] => projected.slice(from, to).map((e) => e.sourceEntry);
  return { history: sources(start, historyEnd), turnPrefix: cut.isSplitTurn ? sources(cut.turnStartIndex, cut.firstKeptEntryIndex) : [] };
}

/** The entry ranges behind a preparation (same boundaries as prepareCompaction). */
export function compactionSpans(pathEntries: readonly SessionEntry[], prep: CompactionPreparation, version: AgentSemantics["version"] = "0.73"): CompactionSpans {
  if (version === "1.5") return projectedSpans(pathEntries, prep);
  let prevIndex = -1;
  for (let i = pathEntries.length - 1; i >= 0; i--) {
    if (pathEntries[i]!.type === "compaction") {
      prevIndex = i;
      break;
    }
  }
  let start = 0;
  if (prevIndex >= 0) {
    const prev = pathEntries[prevIndex] as CompactionEntry;
    const kept = pathEntries.findIndex((e) => e.id === prev.firstKeptEntryId);
    start = kept >= 0 ? kept : prevIndex + 1;
  }
  const cut = findCutPoint(pathEntries, start, pathEntries.length, prep.settings.keepRecentTokens);
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  return {
    history: pathEntries.slice(start, historyEnd),
    turnPrefix: cut.isSplitTurn ? pathEntries.slice(cut.turnStartIndex, cut.firstKeptEntryIndex) : [],
  };
}

export interface CompactionCallOptions {
  customInstructions?: string;
  /** Replaces pi's history instructions (initial and update prompt). */
  promptText?: string;
  /** Appended to each call's user text (authoritative files lists). */
  historyFilesBlock?: string;
  turnPrefixFilesBlock?: string;
  /** Default pi 0.73's. */
  semantics?: Pick<AgentSemantics, "version" | "convertToLlm" | "serializeConversation">;
}

function replaceInstructions(request: SummaryRequest, prompt: string, focus: string, replacement: string): SummaryRequest {
  const tail = prompt + focus;
  if (!request.userText.endsWith(tail)) return request;
  return { ...request, userText: request.userText.slice(0, request.userText.length - tail.length) + replacement + focus };
}

export function compactionCalls(prep: CompactionPreparation, options: CompactionCallOptions): { history?: SummaryRequest; turnPrefix?: SummaryRequest } {
  const previousSummary = prep.previousSummary === undefined ? undefined : stripManifest(prep.previousSummary);
  const calls = planSummaryCalls({ ...prep, previousSummary }, options.customInstructions, options.semantics);
  let history = calls.history;
  if (history && options.promptText) {
    const focus = options.customInstructions ? `\n\nAdditional focus: ${options.customInstructions}` : "";
    history = replaceInstructions(history, previousSummary ? UPDATE_SUMMARIZATION_PROMPT : SUMMARIZATION_PROMPT, focus, options.promptText);
  }
  if (history && options.historyFilesBlock) history = { ...history, userText: history.userText + options.historyFilesBlock };
  let turnPrefix = calls.turnPrefix;
  if (turnPrefix && options.turnPrefixFilesBlock) turnPrefix = { ...turnPrefix, userText: turnPrefix.userText + options.turnPrefixFilesBlock };
  return { ...(history ? { history } : {}), ...(turnPrefix ? { turnPrefix } : {}) };
}
