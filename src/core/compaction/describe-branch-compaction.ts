// `describePreparation(planCompaction(path, settings))` for pi 0.73.1, streamed:
// the decisions (previous compaction, tokens before, cut point) read only the
// entries they need, then the summarised history is read once in file order,
// each message serialised and its file operations noted (from the line's
// bytes, escaped as `--json` writes it, where the reader holds them: see
// escaped-message.ts), and no parsed body is kept. This is what
// `pi-sessions prepare` runs on a 100 MB branch.

import type { BranchReader } from "../context/branch-reader.js";
import { convertToLlm } from "../context/convert-to-llm.js";
import type { LineChecks } from "../session/scan/line-checks.js";
import type { MessageShape } from "../session/scan/message-shapes.js";
import type { CompactionEntry, SessionEntry } from "../session/format/types.js";
import type { CompactionSettings } from "../settings/compaction-settings.js";
import { branchContextTokens } from "../tokens/branch-context-tokens.js";
import { findBranchCutPoint } from "./branch-cut-point.js";
import type { CompactablePreparationJson, NotCompactablePreparationJson, TranscriptFunctions } from "./describe-preparation.js";
import { getMessageFromEntryForCompaction } from "./entry-message.js";
import { directMessage } from "./escaped-message.js";
import { addFileOpsFromDetails, addToolFileOp, computeFileLists, createFileOps, extractFileOpsFromMessage, type FileOperations } from "./file-ops.js";
import { serializeConversation } from "./serialize-conversation.js";
import { TranscriptBuilder, transcriptString, type TranscriptText } from "./transcript-builder.js";

/** Entry types getMessageFromEntryForCompaction turns into a message (the rest are skipped unparsed). */
const SUMMARISED_TYPES: ReadonlySet<string> = new Set(["message", "custom_message", "branch_summary"]);
const isSummarisedType = (type: string): boolean => SUMMARISED_TYPES.has(type);

/** The `prepare --json` document (describePreparation's, field for field) with the history in pieces. */
export type BranchPreparationJson =
  | NotCompactablePreparationJson
  | (Omit<CompactablePreparationJson, "serializedHistory"> & { serializedHistory: TranscriptText });

const PI_0_73_TRANSCRIPT: TranscriptFunctions = { convertToLlm, serializeConversation };

export function describeBranchCompaction(branch: BranchReader, settings: CompactionSettings): BranchPreparationJson {
  const n = branch.length;
  if (n === 0) return { compactable: false, reason: "the branch has no entries", code: "empty-branch" };
  if (branch.typeAt(n - 1) === "compaction") {
    return { compactable: false, reason: `the leaf ${branch.idAt(n - 1)} is already a compaction`, code: "already-compacted" };
  }

  let prevCompactionIndex = -1;
  for (let i = n - 1; i >= 0 && prevCompactionIndex < 0; i--) if (branch.typeAt(i) === "compaction") prevCompactionIndex = i;
  const prevCompaction = prevCompactionIndex >= 0 ? (branch.entry(prevCompactionIndex) as CompactionEntry) : undefined;
  let boundaryStart = 0;
  if (prevCompaction) {
    let firstKeptIndex = -1;
    for (let i = 0; i < n && firstKeptIndex < 0; i++) if (branch.idAt(i) === prevCompaction.firstKeptEntryId) firstKeptIndex = i;
    boundaryStart = firstKeptIndex >= 0 ? firstKeptIndex : prevCompactionIndex + 1;
  }

  const tokensBefore = branchContextTokens(branch);
  const cutPoint = findBranchCutPoint(branch, boundaryStart, settings.keepRecentTokens);
  const firstKeptEntryId = cutPoint.firstKeptEntryIndex < n ? branch.idAt(cutPoint.firstKeptEntryIndex) : undefined;
  if (!firstKeptEntryId) {
    return { compactable: false, reason: "the first kept entry has no id: the session needs migration to version 3", code: "needs-migration" };
  }

  const fileOps = createFileOps();
  if (prevCompaction && !prevCompaction.fromHook && prevCompaction.details) addFileOpsFromDetails(prevCompaction.details, fileOps);
  const historyEnd = cutPoint.isSplitTurn ? cutPoint.turnStartIndex : cutPoint.firstKeptEntryIndex;
  const history = new TranscriptBuilder(PI_0_73_TRANSCRIPT);
  const summarise = (builder: TranscriptBuilder) => (i: number, line: Buffer | undefined, entry: () => SessionEntry, checks: LineChecks, shape: MessageShape | undefined) => {
    // A message line serialised from its bytes where it can be; else parsed.
    const direct = line && branch.typeAt(i) === "message" ? directMessage(line, checks, shape) : undefined;
    if (direct) {
      for (const [toolName, path] of direct.fileOps) addToolFileOp(toolName, path, fileOps);
      builder.addDirect(direct.text);
      return;
    }
    const message = getMessageFromEntryForCompaction(entry());
    if (!message) return;
    extractFileOpsFromMessage(message, fileOps);
    builder.add(message);
  };
  branch.forEachLine(boundaryStart, historyEnd, isSummarisedType, summarise(history));
  const prefix = new TranscriptBuilder(PI_0_73_TRANSCRIPT);
  if (cutPoint.isSplitTurn) {
    branch.forEachLine(cutPoint.turnStartIndex, cutPoint.firstKeptEntryIndex, isSummarisedType, summarise(prefix));
  }

  return describedCompaction(
    { history, prefix, fileOps, firstKeptEntryId, isSplitTurn: cutPoint.isSplitTurn, tokensBefore, prevCompaction },
    "nothing lies before the cut point: every message is within keepRecentTokens",
  );
}

/** What both pis' streamed preparations found, as the `prepare --json` document. */
export interface DescribedParts {
  history: TranscriptBuilder;
  prefix: TranscriptBuilder;
  fileOps: FileOperations;
  firstKeptEntryId: string;
  isSplitTurn: boolean;
  tokensBefore: number;
  prevCompaction: CompactionEntry | undefined;
}

/** The document of a described compaction; `nothingReason` when nothing lies before the cut point (each pi words it). */
export function describedCompaction(parts: DescribedParts, nothingReason: string): BranchPreparationJson {
  const { history, prefix, prevCompaction } = parts;
  if (history.count === 0 && prefix.count === 0) {
    return { compactable: false, reason: nothingReason, code: "nothing-to-summarize" };
  }
  const { readFiles, modifiedFiles } = computeFileLists(parts.fileOps);
  return {
    compactable: true,
    firstKeptEntryId: parts.firstKeptEntryId,
    isSplitTurn: parts.isSplitTurn,
    tokensBefore: parts.tokensBefore,
    messagesToSummarize: history.count,
    turnPrefixMessages: prefix.count,
    previousSummary: typeof prevCompaction?.summary === "string" ? prevCompaction.summary : null,
    readFiles,
    modifiedFiles,
    serializedHistory: history.text(),
    serializedTurnPrefix: transcriptString(prefix.text()),
  };
}
