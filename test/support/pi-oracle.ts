// pi 0.73.1 itself, as the oracle of the differential tests. The root exports
// most functions; prepareCompaction, estimateContextTokens and computeFileLists
// are not exported and are imported from their files by URL. The types below
// are only what the tests need: the tests treat pi's results as plain data.

import { fileURLToPath, pathToFileURL } from "node:url";
import { resolve } from "node:path";
import * as pi from "@mariozechner/pi-coding-agent";
import type { SessionEntry } from "../../src/core/session/format/types.js";

type Entries = SessionEntry[];
type Message = Record<string, unknown>;

export interface PiFileOps {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export interface PiPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: Message[];
  turnPrefixMessages: Message[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: PiFileOps;
  settings: unknown;
}

export interface PiCutPoint {
  firstKeptEntryIndex: number;
  turnStartIndex: number;
  isSplitTurn: boolean;
}

export interface PiBranchSource {
  getBranch(id: string): Entries;
  getEntry(id: string): SessionEntry | undefined;
}

export interface PiOracle {
  parseSessionEntries(text: string): Record<string, unknown>[];
  migrateSessionEntries(entries: Record<string, unknown>[]): void;
  buildSessionContext(
    entries: Entries,
    leafId?: string | null,
  ): { messages: Message[]; thinkingLevel: string; model: { provider: string; modelId: string } | null };
  convertToLlm(messages: Message[]): Message[];
  estimateTokens(message: Message): number;
  estimateContextTokens(messages: Message[]): {
    tokens: number;
    usageTokens: number;
    trailingTokens: number;
    lastUsageIndex: number | null;
  };
  getLastAssistantUsage(entries: Entries): unknown;
  calculateContextTokens(usage: unknown): number;
  findCutPoint(entries: Entries, start: number, end: number, keepRecentTokens: number): PiCutPoint;
  findTurnStartIndex(entries: Entries, entryIndex: number, startIndex: number): number;
  prepareCompaction(
    pathEntries: Entries,
    settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number },
  ): PiPreparation | undefined;
  computeFileLists(fileOps: PiFileOps): { readFiles: string[]; modifiedFiles: string[] };
  serializeConversation(messages: Message[]): string;
  collectEntriesForBranchSummary(
    session: PiBranchSource,
    oldLeafId: string | null,
    targetId: string,
  ): { entries: Entries; commonAncestorId: string | null };
  prepareBranchEntries(
    entries: Entries,
    tokenBudget?: number,
  ): { messages: Message[]; fileOps: PiFileOps; totalTokens: number };
  SessionManager: typeof pi.SessionManager;
}

const PI_DIST = fileURLToPath(new URL("../../node_modules/@mariozechner/pi-coding-agent/dist/core/", import.meta.url));

export function piFileUrl(relativeToCore: string): string {
  return pathToFileURL(resolve(PI_DIST, relativeToCore)).href;
}

let cached: Promise<PiOracle> | undefined;

export function loadPiOracle(): Promise<PiOracle> {
  cached ??= (async () => {
    const compaction = (await import(piFileUrl("compaction/compaction.js"))) as Record<string, unknown>;
    const utils = (await import(piFileUrl("compaction/utils.js"))) as Record<string, unknown>;
    const root = pi as unknown as Record<string, unknown>;
    return {
      ...(root as object),
      prepareCompaction: compaction.prepareCompaction,
      estimateContextTokens: compaction.estimateContextTokens,
      computeFileLists: utils.computeFileLists,
    } as unknown as PiOracle;
  })();
  return cached;
}

/** pi's own reading of a session file's text: parsed, migrated, header removed. */
export function piEntries(oracle: PiOracle, text: string): SessionEntry[] {
  const parsed = oracle.parseSessionEntries(text);
  oracle.migrateSessionEntries(parsed);
  return parsed.filter((e) => e.type !== "session") as unknown as SessionEntry[];
}

/** A Set-based file-ops value as plain arrays (insertion order kept). */
export function fileOpsAsLists(fileOps: PiFileOps): { read: string[]; written: string[]; edited: string[] } {
  return { read: [...fileOps.read], written: [...fileOps.written], edited: [...fileOps.edited] };
}
