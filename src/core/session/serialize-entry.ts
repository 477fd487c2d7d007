// New entry objects with the key order pi's SessionManager writes
// (session-manager.js appendCompaction, branchWithSummary, appendCustomEntry,
// appendLabelChange, appendSessionInfo), and their JSONL lines. Object literals are built field
// by field so the order never depends on the caller's objects; fields that
// are undefined disappear in JSON.stringify, as they do when pi writes them.

import type { BranchSummaryEntry, CompactionEntry, CustomEntry, LabelEntry, SessionInfoEntry } from "./types.js";

/** The fields the writer assigns: a fresh id, the parent (the leaf), the time. */
export interface EntryPlacement {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface CompactionDraft {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
}

export interface BranchSummaryDraft {
  type: "branch_summary";
  /** pi writes the new leaf's id, "root" when there is none. */
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
}

export interface CustomDraft {
  type: "custom";
  customType: string;
  data?: unknown;
}

export interface LabelDraft {
  type: "label";
  targetId: string;
  label: string | undefined;
}

export interface SessionInfoDraft {
  type: "session_info";
  name: string;
}

/** What a runner asks the writer to append. */
export type EntryDraft = CompactionDraft | BranchSummaryDraft | CustomDraft | LabelDraft | SessionInfoDraft;

export type WrittenEntry = CompactionEntry | BranchSummaryEntry | CustomEntry | LabelEntry | SessionInfoEntry;

/** The entry object exactly as pi would build it for this draft and placement. */
export function buildEntry(draft: EntryDraft, at: EntryPlacement): WrittenEntry {
  switch (draft.type) {
    case "compaction":
      return {
        type: "compaction",
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
        summary: draft.summary,
        firstKeptEntryId: draft.firstKeptEntryId,
        tokensBefore: draft.tokensBefore,
        details: draft.details,
        fromHook: draft.fromHook,
      };
    case "branch_summary":
      return {
        type: "branch_summary",
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
        fromId: draft.fromId,
        summary: draft.summary,
        details: draft.details,
        fromHook: draft.fromHook,
      };
    case "custom":
      return {
        type: "custom",
        customType: draft.customType,
        data: draft.data,
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
      };
    case "label":
      return {
        type: "label",
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
        targetId: draft.targetId,
        label: draft.label,
      };
    case "session_info":
      return {
        type: "session_info",
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
        name: draft.name,
      };
  }
}

/** One JSONL line, `\n` included, as pi's `${JSON.stringify(entry)}\n`. */
export function serializeEntry(entry: WrittenEntry): string {
  return `${JSON.stringify(entry)}\n`;
}

/** The entry as a reader will see it after writing: undefined fields gone. */
export function asWritten<T extends WrittenEntry>(entry: T): T {
  return JSON.parse(JSON.stringify(entry)) as T;
}
