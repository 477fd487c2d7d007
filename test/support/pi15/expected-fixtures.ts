// The 14 session files pi 1.5.2's own SessionManager wrote (shared/fixtures/pi-1.5,
// copied to test/fixtures/pi-1.5) and pi 1.5.2's answers on them (expected.json),
// as both the oracle's proof and our core's fixture test read them.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DEFAULT_COMPACTION_SETTINGS } from "../../../src/core/settings/index.js";

export const PI15_FIXTURES_DIR = join(__dirname, "../../fixtures/pi-1.5");

export interface ExpectedPreparation {
  compactable: boolean;
  firstKeptEntryId?: string;
  firstKeptEntry?: string;
  isSplitTurn?: boolean;
  tokensBefore?: number;
  messagesToSummarize?: number;
  messagesToSummarizeRoles?: string[];
  turnPrefixMessages?: number;
  turnPrefixRoles?: string[];
  previousSummary?: boolean;
  readFiles?: string[];
  modifiedFiles?: string[];
  serializedHistoryChars?: number;
  serializedTurnPrefixChars?: number;
}

export interface ExpectedBranchBudget {
  messages: number;
  roles: string[];
  totalTokens: number;
  files: { readFiles: string[]; modifiedFiles: string[] };
  serializedChars: number;
  serializedSha1: string;
}

export interface ExpectedBranch {
  oldLeafId: string;
  targetId: string;
  commonAncestorId: string | null;
  entries: string[];
  budget0: ExpectedBranchBudget;
  budgetDefault: ExpectedBranchBudget;
  budget1500: ExpectedBranchBudget;
}

export interface ExpectedFile {
  leafId: string;
  buildSessionContext: { messageCount: number; roles: string[]; model: unknown; thinkingLevel: string };
  convertToLlmRoles: string[];
  estimateContextTokens: number;
  estimateProjectedContextTokens: number;
  prepareCompaction: { default: ExpectedPreparation; keepRecentTokens2000: ExpectedPreparation };
  branchSummary?: Record<string, ExpectedBranch>;
  branchSummaryEntry?: { id: string; parentId: string; fromId: string; hasUsage: boolean };
}

export interface Pi15Expected {
  settings: { default: typeof DEFAULT_COMPACTION_SETTINGS; keep2000: typeof DEFAULT_COMPACTION_SETTINGS };
  files: Record<string, ExpectedFile>;
}

export function readPi15Expected(): Pi15Expected {
  return JSON.parse(readFileSync(join(PI15_FIXTURES_DIR, "expected.json"), "utf8")) as Pi15Expected;
}
