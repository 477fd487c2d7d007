// omp 18.3.4's prepareCompaction (agent-core compaction/compaction.ts): the
// range starts after the latest `/clear` and at the previous compaction's
// firstKeptEntryId; only message-bearing entries (message, custom_message,
// branch_summary) are cut; the keep budget is divided by the last usage's
// prompt tokens / the estimate of those messages; tokensBefore is that usage.
// The model is not known here (omp is asked without one): a remote compaction
// is always read as a boundary, and counts are omp's byte estimate.

import { createBranchSummaryMessage, createCustomMessage, isRecord, type OmpMessage } from "./messages.js";
import { countMessageTokens, countMessagesTokens } from "./tokenizer.js";

export interface OmpFileOps {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export interface OmpPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: OmpMessage[];
  turnPrefixMessages: OmpMessage[];
  recentMessages: OmpMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  previousPreserveData?: unknown;
  fileOps: OmpFileOps;
}

export type OmpPrepareResult =
  | { compactable: true; preparation: OmpPreparation }
  | { compactable: false; code: "empty-branch" | "already-compacted" | "needs-migration" | "nothing-to-summarize"; reason: string };

/** getMessageFromEntry (compaction.ts): the message an entry contributes to compaction, if any. */
export function compactionMessageOf(entry: OmpMessage): OmpMessage | undefined {
  if (entry.type === "message") return entry.message;
  if (entry.type === "custom_message") return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp, entry.attribution);
  if (entry.type === "branch_summary") return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
  return undefined;
}

// --- usage ---

export function calculateContextTokens(usage: OmpMessage): number {
  if (usage.contextTokens !== undefined) return Math.max(0, usage.contextTokens);
  const o = usage.orchestration;
  const orchestration = o ? (o.input ?? 0) + (o.output ?? 0) + (o.cacheRead ?? 0) : 0;
  const raw = usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  return Math.max(0, raw - orchestration);
}

export function calculatePromptTokens(usage: OmpMessage): number {
  if (usage.contextTokens !== undefined) return Math.max(0, usage.contextTokens);
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  return prompt > 0 ? prompt : calculateContextTokens(usage);
}

export function assistantUsage(message: OmpMessage | undefined): OmpMessage | undefined {
  if (message?.role === "assistant" && "usage" in message && message.stopReason !== "aborted" && message.stopReason !== "error" && message.usage) return message.usage;
  return undefined;
}

export function getLastAssistantUsage(path: readonly OmpMessage[]): OmpMessage | undefined {
  for (let i = path.length - 1; i >= 0; i--) {
    const entry = path[i]!;
    if (entry.type !== "message") continue;
    const usage = assistantUsage(entry.message);
    if (usage) return usage;
  }
  return undefined;
}

// --- cut points ---

const CUT_ROLES: ReadonlySet<string> = new Set(["bashExecution", "hookMessage", "branchSummary", "compactionSummary", "user", "assistant"]);

export function isTurnStartEntry(entry: OmpMessage): boolean {
  if (entry.type === "branch_summary" || entry.type === "custom_message") return true;
  if (entry.type === "message") return entry.message?.role === "user" || entry.message?.role === "bashExecution";
  return false;
}

export interface OmpCutPoint {
  firstKeptEntryIndex: number;
  turnStartIndex: number;
  isSplitTurn: boolean;
}

/** Whether omp may cut at this entry (a message of a cut role, a branch summary or a custom message). */
export function isCutPointEntry(entry: OmpMessage): boolean {
  return (entry.type === "message" && CUT_ROLES.has(entry.message?.role)) || entry.type === "branch_summary" || entry.type === "custom_message";
}

export function findCutPoint(entries: readonly OmpMessage[], startIndex: number, endIndex: number, keepRecentTokens: number): OmpCutPoint {
  const cutPoints: number[] = [];
  for (let i = startIndex; i < endIndex; i++) {
    if (isCutPointEntry(entries[i]!)) cutPoints.push(i);
  }
  if (cutPoints.length === 0) return { firstKeptEntryIndex: startIndex, turnStartIndex: -1, isSplitTurn: false };
  let accumulated = 0;
  let cutPointIndex = cutPoints.length - 1;
  let cutIndex = cutPoints[cutPointIndex]!;
  for (let i = endIndex - 1; i >= startIndex; i--) {
    const message = compactionMessageOf(entries[i]!);
    if (message) accumulated += countMessageTokens(message);
    if (i !== cutPoints[cutPointIndex]) continue;
    if (accumulated > keepRecentTokens) break;
    cutIndex = i;
    cutPointIndex--;
  }
  const isTurnStart = isTurnStartEntry(entries[cutIndex]!);
  let turnStartIndex = -1;
  if (!isTurnStart) {
    for (let i = cutIndex; i >= startIndex; i--) {
      if (isTurnStartEntry(entries[i]!)) {
        turnStartIndex = i;
        break;
      }
    }
  }
  while (cutIndex > startIndex) {
    const prev = entries[cutIndex - 1]!;
    if (prev.type === "compaction" || prev.type === "reset_boundary") break;
    if (compactionMessageOf(prev)) break;
    cutIndex--;
  }
  return { firstKeptEntryIndex: cutIndex, turnStartIndex, isSplitTurn: !isTurnStart && turnStartIndex !== -1 };
}

// --- file operations ---

const RANGE_CHUNK_SRC = String.raw`L?\d+(?:(?:[-+]|\.\.)L?\d+|-|\.\.)?`;
const RANGE_LIST_SRC = `${RANGE_CHUNK_SRC}(?:,${RANGE_CHUNK_SRC})*`;
const READ_SELECTOR_RE = new RegExp(`^(?:${RANGE_LIST_SRC}|raw|conflicts)$`, "i");
const READ_RANGE_ONLY_RE = new RegExp(`^${RANGE_LIST_SRC}$`, "i");
const READ_RAW_ONLY_RE = /^raw$/i;
const URL_SCHEME_RE = /[a-z][a-z0-9+.-]*:\/\//i;

/** A read path without its `:50-200` / `:raw` / `:conflicts` selector. */
export function stripReadSelector(path: string): string {
  const colon = path.lastIndexOf(":");
  if (colon <= 0) return path;
  const candidate = path.slice(colon + 1);
  if (!READ_SELECTOR_RE.test(candidate)) return path;
  let base = path.slice(0, colon);
  const inner = base.lastIndexOf(":");
  if (inner > 0) {
    const innerCandidate = base.slice(inner + 1);
    const innerIsRaw = READ_RAW_ONLY_RE.test(innerCandidate);
    const outerIsRaw = READ_RAW_ONLY_RE.test(candidate);
    const innerIsRange = READ_RANGE_ONLY_RE.test(innerCandidate);
    const outerIsRange = READ_RANGE_ONLY_RE.test(candidate);
    if ((innerIsRaw && outerIsRange) || (innerIsRange && outerIsRaw)) base = base.slice(0, inner);
  }
  return base;
}

export const isUrlSchemePath = (path: string): boolean => URL_SCHEME_RE.test(path);

export function createFileOps(): OmpFileOps {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** omp's own tracking: `args.path` of `read` / `write` / `edit` tool calls only. */
export function extractFileOpsFromMessage(message: OmpMessage, fileOps: OmpFileOps): void {
  if (message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const block of message.content as OmpMessage[]) {
    if (typeof block !== "object" || block === null || block.type !== "toolCall") continue;
    if (!("arguments" in block) || !("name" in block)) continue;
    const args = block.arguments;
    if (!args) continue;
    const path = typeof args.path === "string" ? args.path : undefined;
    if (!path || isUrlSchemePath(path)) continue;
    if (block.name === "read") fileOps.read.add(stripReadSelector(path));
    else if (block.name === "write") fileOps.written.add(path);
    else if (block.name === "edit") fileOps.edited.add(path);
  }
}

export function computeFileLists(fileOps: OmpFileOps): { readFiles: string[]; modifiedFiles: string[] } {
  const modified = new Set([...fileOps.edited, ...fileOps.written].filter((f) => !isUrlSchemePath(f)));
  const readFiles = [...fileOps.read].filter((f) => !isUrlSchemePath(f) && !modified.has(f)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The compaction keeps an OpenAI remote (native) history: omp reads it only with a model that can replay it. */
export function hasNativeReplay(preserveData: unknown): boolean {
  const candidate = isRecord(preserveData) ? preserveData.openaiRemoteCompaction : undefined;
  if (!candidate || typeof candidate !== "object") return false;
  const c = candidate as OmpMessage;
  // getCompactionV2PreserveData (a provider and a replacement history) or getPreservedOpenAiRemoteCompactionData.
  if (typeof c.provider === "string" && c.provider.length > 0 && Array.isArray(c.replacementHistory)) return true;
  if (!Array.isArray(c.replacementHistory)) return false;
  const item = c.compactionItem;
  if (!item || typeof item !== "object") return false;
  return (item.type === "compaction" && typeof item.encrypted_content === "string") || item.type === "compaction_summary";
}

export function ompPrepareCompaction(path: readonly OmpMessage[], keepRecentTokensSetting: number): OmpPrepareResult {
  if (path.length === 0) return { compactable: false, code: "empty-branch", reason: "the branch has no entries" };
  const last = path[path.length - 1]!;
  if (last.type === "compaction" && !last.providerReplayThroughEntryId) {
    return { compactable: false, code: "already-compacted", reason: `the leaf ${last.id} is already a compaction` };
  }
  let prevIndex = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "compaction") {
      prevIndex = i;
      break;
    }
  }
  let resetIndex = -1;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.type === "reset_boundary") {
      resetIndex = i;
      break;
    }
  }
  if (resetIndex > prevIndex) prevIndex = -1;
  const previous = prevIndex >= 0 ? path[prevIndex]! : undefined;
  let boundaryStart = Math.max(prevIndex, resetIndex) + 1;
  if (previous && hasNativeReplay(previous.preserveData)) {
    if (previous.providerReplayThroughEntryId) {
      const through = path.findIndex((e) => e.id === previous.providerReplayThroughEntryId);
      if (through >= 0 && through < prevIndex) boundaryStart = Math.max(through, resetIndex) + 1;
    }
  } else if (previous) {
    for (let i = resetIndex + 1; i < prevIndex; i++) {
      if (path[i]!.id === previous.firstKeptEntryId) {
        boundaryStart = i;
        break;
      }
    }
  }

  const entries: OmpMessage[] = [];
  const messages: OmpMessage[] = [];
  for (let i = boundaryStart; i < path.length; i++) {
    const message = compactionMessageOf(path[i]!);
    if (!message) continue;
    entries.push(path[i]!);
    messages.push(message);
  }

  const lastUsage = getLastAssistantUsage(path);
  const tokensBefore = lastUsage ? calculateContextTokens(lastUsage) : 0;
  let keepRecentTokens = keepRecentTokensSetting;
  if (lastUsage) {
    const estimated = countMessagesTokens(messages);
    const ratio = estimated > 0 ? calculatePromptTokens(lastUsage) / estimated : 0;
    if (Number.isFinite(ratio) && ratio > 1) keepRecentTokens = Math.max(1, Math.floor(keepRecentTokens / ratio));
  }
  const cut = findCutPoint(entries, 0, entries.length, keepRecentTokens);
  const firstKept = entries[cut.firstKeptEntryIndex];
  if (!firstKept?.id) {
    return entries.length === 0
      ? { compactable: false, code: "nothing-to-summarize", reason: "no message lies in the range omp would compact" }
      : { compactable: false, code: "needs-migration", reason: "the first kept entry has no id: the session needs migration" };
  }
  const historyEnd = cut.isSplitTurn ? cut.turnStartIndex : cut.firstKeptEntryIndex;
  const messagesToSummarize = messages.slice(0, historyEnd);
  const turnPrefixMessages = cut.isSplitTurn ? messages.slice(cut.turnStartIndex, cut.firstKeptEntryIndex) : [];
  const recentMessages = messages.slice(cut.firstKeptEntryIndex);
  if (messagesToSummarize.length === 0 && turnPrefixMessages.length === 0) {
    return { compactable: false, code: "nothing-to-summarize", reason: "nothing lies before omp's cut point: every message is within the (usage-calibrated) keep budget" };
  }
  const fileOps = createFileOps();
  if (previous && !previous.fromExtension && previous.details) {
    const details = previous.details as OmpMessage;
    if (Array.isArray(details.readFiles)) for (const f of details.readFiles) fileOps.read.add(stripReadSelector(f));
    if (Array.isArray(details.modifiedFiles)) for (const f of details.modifiedFiles) fileOps.edited.add(f);
  }
  for (const m of messagesToSummarize) extractFileOpsFromMessage(m, fileOps);
  if (cut.isSplitTurn) for (const m of turnPrefixMessages) extractFileOpsFromMessage(m, fileOps);
  return {
    compactable: true,
    preparation: {
      firstKeptEntryId: firstKept.id,
      messagesToSummarize,
      turnPrefixMessages,
      recentMessages,
      isSplitTurn: cut.isSplitTurn,
      tokensBefore,
      ...(previous ? { previousSummary: previous.summary, previousPreserveData: previous.preserveData } : {}),
      fileOps,
    },
  };
}
