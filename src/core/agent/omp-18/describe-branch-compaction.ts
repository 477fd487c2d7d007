// omp 18.3.4's prepareCompaction (prepare-compaction.ts) as the `prepare --json`
// document, streamed over a lazily read branch like pi's
// (compaction/describe-branch-compaction.ts): the leaf, the previous compaction
// and the latest `/clear` come from the index's types (one body each at most);
// omp's keep budget is calibrated by the estimate of every message in the range
// it compacts, so the range is read once in file order keeping a few numbers
// per message (tokens, whether omp may cut there, whether a turn starts there);
// then the summarised history and the split turn's prefix are read again and
// serialised message by message. No parsed body is kept.

import type { BranchPreparationJson } from "../../compaction/describe-branch-compaction.js";
import type { TranscriptFunctions } from "../../compaction/describe-preparation.js";
import { TranscriptBuilder, transcriptString } from "../../compaction/transcript-builder.js";
import type { BranchReader } from "../../context/branch-reader.js";
import type { LlmMessage, SessionEntry } from "../../session/format/types.js";
import { ompConvertMessage, ompConvertToLlm } from "./convert-to-llm.js";
import type { OmpMessage } from "./messages.js";
import {
  assistantUsage,
  calculateContextTokens,
  calculatePromptTokens,
  compactionMessageOf,
  computeFileLists,
  createFileOps,
  extractFileOpsFromMessage,
  hasNativeReplay,
  isCutPointEntry,
  isTurnStartEntry,
  stripReadSelector,
  type OmpFileOps,
} from "./prepare-compaction.js";
import { isUselessResult, ompSerializeConversation, serializeMessageInto } from "./serialize-conversation.js";
import { countMessageTokens } from "./tokenizer.js";

/** Entry types compactionMessageOf turns into a message (the rest are skipped unparsed). */
const MESSAGE_TYPES: ReadonlySet<string> = new Set(["message", "custom_message", "branch_summary"]);
const isMessageType = (type: string): boolean => MESSAGE_TYPES.has(type);

const CUT_POINT = 1;
const TURN_START = 2;

/** The messages of the range, as numbers: where each sits on the branch, its estimate, and what omp's cut asks of it. */
interface RangeMessages {
  count: number;
  positions: Int32Array;
  tokens: Float64Array;
  flags: Uint8Array;
  estimated: number;
  /** The last usable assistant usage among them. */
  lastUsage: OmpMessage | undefined;
  /** Tool call ids of useless results, with the index of the result among the messages. */
  useless: { id: string; at: number }[];
}

function readRange(branch: BranchReader, start: number, loaded: (entry: SessionEntry) => OmpMessage): RangeMessages {
  const n = branch.length;
  let positions = new Int32Array(Math.max(16, n - start));
  let tokens = new Float64Array(positions.length);
  let flags = new Uint8Array(positions.length);
  const range: RangeMessages = { count: 0, positions, tokens, flags, estimated: 0, lastUsage: undefined, useless: [] };
  branch.forEach(start, n, isMessageType, (raw, i) => {
    const entry = loaded(raw);
    const message = compactionMessageOf(entry);
    if (!message) return;
    const k = range.count++;
    if (k === positions.length) {
      // Only when a message-bearing type holds more than one message (never: one entry, one message).
      positions = grow(positions, new Int32Array(k * 2));
      tokens = grow(tokens, new Float64Array(k * 2));
      flags = grow(flags, new Uint8Array(k * 2));
    }
    positions[k] = i;
    const t = countMessageTokens(message);
    tokens[k] = t;
    range.estimated += t;
    flags[k] = (isCutPointEntry(entry) ? CUT_POINT : 0) | (isTurnStartEntry(entry) ? TURN_START : 0);
    if (entry.type === "message") range.lastUsage = assistantUsage(entry.message) ?? range.lastUsage;
    if (isUselessResult(message)) range.useless.push({ id: message.toolCallId, at: k });
  });
  range.positions = positions;
  range.tokens = tokens;
  range.flags = flags;
  return range;
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(from: T, to: T): T {
  to.set(from);
  return to;
}

/** findCutPoint (prepare-compaction.ts) over the range's numbers. */
function cutPointOf(range: RangeMessages, keepRecentTokens: number): { firstKept: number; turnStart: number; isSplitTurn: boolean } {
  const { count, tokens, flags } = range;
  let lastCut = -1;
  for (let i = count - 1; i >= 0 && lastCut < 0; i--) if (flags[i]! & CUT_POINT) lastCut = i;
  if (lastCut < 0) return { firstKept: 0, turnStart: -1, isSplitTurn: false };
  let accumulated = 0;
  let cutIndex = lastCut;
  for (let i = count - 1; i >= 0; i--) {
    accumulated += tokens[i]!;
    if (!(flags[i]! & CUT_POINT)) continue;
    if (accumulated > keepRecentTokens) break;
    cutIndex = i;
  }
  const isTurnStart = (flags[cutIndex]! & TURN_START) !== 0;
  let turnStart = -1;
  if (!isTurnStart) for (let i = cutIndex; i >= 0 && turnStart < 0; i--) if (flags[i]! & TURN_START) turnStart = i;
  // Every message of the range bears a message: omp's walk back over entries that do not stops at once.
  return { firstKept: cutIndex, turnStart, isSplitTurn: !isTurnStart && turnStart !== -1 };
}

/**
 * Serialises the messages [from, to) of the range, read again from the branch,
 * into `builder` (convertToLlm + serializeConversation of that list, one
 * message at a time: a message waits for the next one, which may strip its
 * thinking), noting their file operations.
 */
function serializeRange(
  branch: BranchReader,
  range: RangeMessages,
  from: number,
  to: number,
  builder: TranscriptBuilder,
  fileOps: OmpFileOps,
  loaded: (entry: SessionEntry) => OmpMessage,
): void {
  if (from >= to) return;
  const useless = new Set<string>();
  for (const u of range.useless) if (u.at >= from && u.at < to) useless.add(u.id);
  let pending: OmpMessage | undefined;
  const emit = (message: OmpMessage, next: OmpMessage | undefined) => {
    const parts: string[] = [];
    for (const llm of ompConvertMessage(message, next)) serializeMessageInto(llm, useless, parts);
    builder.addDirect({ text: parts.join("\n\n") });
  };
  let k = from;
  branch.forEach(range.positions[from]!, range.positions[to - 1]! + 1, isMessageType, (raw) => {
    const message = compactionMessageOf(loaded(raw));
    if (!message) return;
    k++;
    extractFileOpsFromMessage(message, fileOps);
    if (pending) emit(pending, message);
    pending = message;
  });
  if (pending) emit(pending, undefined);
  if (k !== to) throw new Error(`omp prepare: read ${k - from} messages of ${to - from} again`);
}

export function describeOmpBranchCompaction(
  branch: BranchReader,
  keepRecentTokensSetting: number,
  loaded: (entry: SessionEntry) => OmpMessage,
): BranchPreparationJson {
  const n = branch.length;
  if (n === 0) return { compactable: false, reason: "the branch has no entries", code: "empty-branch" };
  const leaf = branch.typeAt(n - 1) === "compaction" ? loaded(branch.entry(n - 1)) : undefined;
  if (leaf && !leaf.providerReplayThroughEntryId) {
    return { compactable: false, reason: `the leaf ${leaf.id} is already a compaction`, code: "already-compacted" };
  }

  let prevIndex = -1;
  for (let i = n - 1; i >= 0 && prevIndex < 0; i--) if (branch.typeAt(i) === "compaction") prevIndex = i;
  let resetIndex = -1;
  for (let i = n - 1; i >= 0 && resetIndex < 0; i--) if (branch.typeAt(i) === "reset_boundary") resetIndex = i;
  if (resetIndex > prevIndex) prevIndex = -1;
  const previous = prevIndex < 0 ? undefined : prevIndex === n - 1 ? leaf : loaded(branch.entry(prevIndex));
  let boundaryStart = Math.max(prevIndex, resetIndex) + 1;
  if (previous && hasNativeReplay(previous.preserveData)) {
    if (previous.providerReplayThroughEntryId) {
      let through = -1;
      for (let i = 0; i < n && through < 0; i++) if (branch.idAt(i) === previous.providerReplayThroughEntryId) through = i;
      if (through >= 0 && through < prevIndex) boundaryStart = Math.max(through, resetIndex) + 1;
    }
  } else if (previous) {
    for (let i = resetIndex + 1; i < prevIndex; i++) {
      if (branch.idAt(i) === previous.firstKeptEntryId) {
        boundaryStart = i;
        break;
      }
    }
  }

  const range = readRange(branch, boundaryStart, loaded);
  // getLastAssistantUsage: the range's, else the newest before it.
  let lastUsage = range.lastUsage;
  for (let i = boundaryStart - 1; i >= 0 && !lastUsage; i--) if (branch.typeAt(i) === "message") lastUsage = assistantUsage(loaded(branch.entry(i)).message);
  const tokensBefore = lastUsage ? calculateContextTokens(lastUsage) : 0;
  let keepRecentTokens = keepRecentTokensSetting;
  if (lastUsage) {
    const ratio = range.estimated > 0 ? calculatePromptTokens(lastUsage) / range.estimated : 0;
    if (Number.isFinite(ratio) && ratio > 1) keepRecentTokens = Math.max(1, Math.floor(keepRecentTokens / ratio));
  }
  const cut = cutPointOf(range, keepRecentTokens);
  const firstKeptEntryId = cut.firstKept < range.count ? branch.idAt(range.positions[cut.firstKept]!) : undefined;
  if (!firstKeptEntryId) {
    return range.count === 0
      ? { compactable: false, reason: "no message lies in the range omp would compact", code: "nothing-to-summarize" }
      : { compactable: false, reason: "the first kept entry has no id: the session needs migration", code: "needs-migration" };
  }
  const historyEnd = cut.isSplitTurn ? cut.turnStart : cut.firstKept;
  const prefixCount = cut.isSplitTurn ? cut.firstKept - cut.turnStart : 0;
  if (historyEnd === 0 && prefixCount === 0) {
    return { compactable: false, reason: "nothing lies before omp's cut point: every message is within the (usage-calibrated) keep budget", code: "nothing-to-summarize" };
  }

  const fileOps = createFileOps();
  if (previous && !previous.fromExtension && previous.details) {
    const details = previous.details as OmpMessage;
    if (Array.isArray(details.readFiles)) for (const f of details.readFiles) fileOps.read.add(stripReadSelector(f));
    if (Array.isArray(details.modifiedFiles)) for (const f of details.modifiedFiles) fileOps.edited.add(f);
  }
  const transcript: TranscriptFunctions = {
    convertToLlm: (messages) => ompConvertToLlm(messages as readonly OmpMessage[]) as LlmMessage[],
    serializeConversation: (messages) => ompSerializeConversation(messages as readonly OmpMessage[]),
  };
  const history = new TranscriptBuilder(transcript);
  const prefix = new TranscriptBuilder(transcript);
  serializeRange(branch, range, 0, historyEnd, history, fileOps, loaded);
  if (cut.isSplitTurn) serializeRange(branch, range, cut.turnStart, cut.firstKept, prefix, fileOps, loaded);
  const { readFiles, modifiedFiles } = computeFileLists(fileOps);
  return {
    compactable: true,
    firstKeptEntryId,
    isSplitTurn: cut.isSplitTurn,
    tokensBefore,
    messagesToSummarize: history.count,
    turnPrefixMessages: prefix.count,
    previousSummary: typeof previous?.summary === "string" ? previous.summary : null,
    readFiles,
    modifiedFiles,
    serializedHistory: history.text(),
    serializedTurnPrefix: transcriptString(prefix.text()),
  };
}
