// omp 18.3.4's prepareCompaction (prepare-compaction.ts) as the `prepare --json`
// document, streamed over a lazily read branch like pi's
// (compaction/describe-branch-compaction.ts): the leaf, the previous compaction
// and the latest `/clear` come from the index's types (one body each at most).
// omp calibrates its keep budget by the estimate of every message in the range
// it compacts, so that range is read once in file order, each body dropped
// after it: per message a few numbers (tokens, whether omp may cut there,
// whether a turn starts there), its transcript text and its file operations.
// The cut then picks the history's texts; only a message whose text differs
// inside the history (a call whose useless result it holds, a notice it cuts
// off) is read again.

import type { BranchPreparationJson } from "../../compaction/describe-branch-compaction.js";
import type { TranscriptFunctions } from "../../compaction/describe-preparation.js";
import { TranscriptBuilder, transcriptString } from "../../compaction/transcript-builder.js";
import type { BranchReader } from "../../context/branch-reader.js";
import type { LlmMessage, SessionEntry } from "../../session/format/types.js";
import { ompConvertMessage, ompConvertToLlm } from "./convert-to-llm.js";
import { INTERRUPTED_THINKING_MESSAGE_TYPE, type OmpMessage } from "./messages.js";
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
/** The message after it in the range is omp's interrupted-thinking notice (which strips its thinking while it follows). */
const BEFORE_INTERRUPTED = 4;

const INTERRUPTED_NOTICE: OmpMessage = { role: "custom", customType: INTERRUPTED_THINKING_MESSAGE_TYPE };

/** What one message adds to the file lists. */
type FileOpsOf = { read: string[]; written: string[]; edited: string[] } | undefined;

/**
 * The messages of the range, read once: where each sits on the branch, its
 * estimate, what omp's cut asks of it, its transcript text as it reads inside
 * the range with no call left out, and its file operations.
 */
interface RangeMessages {
  count: number;
  positions: Int32Array;
  tokens: Float64Array;
  flags: Uint8Array;
  texts: string[];
  fileOps: FileOpsOf[];
  estimated: number;
  /** The last usable assistant usage among them. */
  lastUsage: OmpMessage | undefined;
  /** Tool call ids of useless results, with the index of the result among the messages. */
  useless: { id: string; at: number }[];
  /** Per tool call id of a useless result: the messages whose text leaves that call or result out when the result is in their list. */
  referring: Map<string, number[]>;
}

const NO_CALLS_LEFT_OUT: ReadonlySet<string> = new Set();

/** One message's transcript text in a list where `interruptedNext` tells whether the interrupted-thinking notice follows it. */
function messageText(message: OmpMessage, interruptedNext: boolean, useless: ReadonlySet<string>): string {
  const parts: string[] = [];
  for (const llm of ompConvertMessage(message, interruptedNext ? INTERRUPTED_NOTICE : undefined)) serializeMessageInto(llm, useless, parts);
  return parts.join("\n\n");
}

function fileOpsOf(message: OmpMessage, scratch: OmpFileOps): FileOpsOf {
  extractFileOpsFromMessage(message, scratch);
  if (scratch.read.size === 0 && scratch.written.size === 0 && scratch.edited.size === 0) return undefined;
  const ops = { read: [...scratch.read], written: [...scratch.written], edited: [...scratch.edited] };
  scratch.read.clear();
  scratch.written.clear();
  scratch.edited.clear();
  return ops;
}

/** Tool call ids a message's text holds (an assistant's calls, a result's call). */
function callIdsOf(message: OmpMessage): string[] {
  if (message.role === "toolResult") return [message.toolCallId];
  if (message.role !== "assistant" || !Array.isArray(message.content)) return [];
  const ids: string[] = [];
  for (const block of message.content as OmpMessage[]) if (block?.type === "toolCall") ids.push(block.id);
  return ids;
}

function readRange(branch: BranchReader, start: number, loaded: (entry: SessionEntry) => OmpMessage): RangeMessages {
  const n = branch.length;
  const size = Math.max(0, n - start);
  const range: RangeMessages = {
    count: 0,
    positions: new Int32Array(size),
    tokens: new Float64Array(size),
    flags: new Uint8Array(size),
    texts: [],
    fileOps: [],
    estimated: 0,
    lastUsage: undefined,
    useless: [],
    referring: new Map(),
  };
  const scratch = createFileOps();
  const callers = new Map<string, number[]>();
  // A message's text waits for the next message (an interrupted-thinking notice after it strips its thinking).
  let pending: OmpMessage | undefined;
  const settle = (next: OmpMessage | undefined) => {
    const k = range.texts.length;
    const interrupted = pending!.role === "assistant" && next?.role === "custom" && next.customType === INTERRUPTED_THINKING_MESSAGE_TYPE;
    if (interrupted) range.flags[k]! |= BEFORE_INTERRUPTED;
    range.texts.push(messageText(pending!, interrupted, NO_CALLS_LEFT_OUT));
  };
  branch.forEach(start, n, isMessageType, (raw, i) => {
    const entry = loaded(raw);
    const message = compactionMessageOf(entry);
    if (!message) return;
    if (pending) settle(message);
    // One entry, one message: the arrays sized by the range hold them all.
    const k = range.count++;
    range.positions[k] = i;
    const t = countMessageTokens(message);
    range.tokens[k] = t;
    range.estimated += t;
    range.flags[k] = (isCutPointEntry(entry) ? CUT_POINT : 0) | (isTurnStartEntry(entry) ? TURN_START : 0);
    if (entry.type === "message") range.lastUsage = assistantUsage(entry.message) ?? range.lastUsage;
    if (isUselessResult(message)) range.useless.push({ id: message.toolCallId, at: k });
    range.fileOps.push(fileOpsOf(message, scratch));
    for (const id of callIdsOf(message)) {
      const list = callers.get(id);
      if (list) list.push(k);
      else callers.set(id, [k]);
    }
    pending = message;
  });
  if (pending) settle(undefined);
  for (const u of range.useless) range.referring.set(u.id, callers.get(u.id) ?? []);
  return range;
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
 * convertToLlm + serializeConversation of the messages [from, to) of the range
 * into `builder`, one message at a time, with their file operations. Texts come
 * from the first read; read again are only the messages whose text differs in
 * this list: the last one before an interrupted-thinking notice the list cuts
 * off, and those holding a call whose useless result lies in the list.
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
  const again = new Set<number>();
  for (const u of range.useless) {
    if (u.at < from || u.at >= to) continue;
    useless.add(u.id);
    for (const k of range.referring.get(u.id)!) if (k >= from && k < to) again.add(k);
  }
  if (range.flags[to - 1]! & BEFORE_INTERRUPTED) again.add(to - 1);
  const texts = new Map<number, string>();
  if (again.size > 0) {
    const ks = [...again].sort((a, b) => a - b);
    const at = new Map(ks.map((k) => [range.positions[k]!, k]));
    branch.forEachAt(
      ks.map((k) => range.positions[k]!),
      (raw, i) => {
        const k = at.get(i)!;
        texts.set(k, messageText(compactionMessageOf(loaded(raw))!, k + 1 < to && (range.flags[k]! & BEFORE_INTERRUPTED) !== 0, useless));
      },
    );
  }
  for (let k = from; k < to; k++) {
    builder.addDirect({ text: texts.get(k) ?? range.texts[k]! });
    const ops = range.fileOps[k];
    if (!ops) continue;
    for (const f of ops.read) fileOps.read.add(f);
    for (const f of ops.written) fileOps.written.add(f);
    for (const f of ops.edited) fileOps.edited.add(f);
  }
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
