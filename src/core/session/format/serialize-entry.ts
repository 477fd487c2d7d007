// New entry objects with the key order pi's SessionManager writes
// (session-manager.js appendCompaction, branchWithSummary, appendCustomEntry,
// appendLabelChange, appendSessionInfo), and their JSONL lines. Object literals are built field
// by field so the order never depends on the caller's objects; fields that
// are undefined disappear in JSON.stringify, as they do when pi writes them.
// pi 1.5.2's fields (`usage`, `systemMessage`) sit where 1.5.2 puts them;
// a 0.73 draft leaves them undefined, so its lines are 0.73.1's.

import type { BranchSummaryEntry, CompactionEntry, CustomEntry, LabelEntry, SessionInfoEntry, SystemMessage, TitleChangeEntry, Usage } from "./types.js";

/** The fields the writer assigns: a fresh id, the parent (the leaf), the time. */
export interface EntryPlacement {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface CompactionDraft {
  type: "compaction";
  summary: string;
  /** null (pi 1.5, retain-none): the entry's own id, nothing before it kept. */
  firstKeptEntryId: string | null;
  tokensBefore: number;
  details?: unknown;
  /** pi 1.5: the summary call(s)' usage. */
  usage?: Usage;
  fromHook?: boolean;
  /** pi 1.5: the branch's current system message; written with the entry's time as its timestamp. */
  systemMessage?: SystemMessage;
  /** omp: set (true or false) for an omp compaction, written in omp's key order with its other fields. */
  fromExtension?: boolean;
  shortSummary?: string;
  /** omp: "soft" for a compaction made exactly as omp's own soft compaction (its template either way). */
  method?: "soft";
  tokensAfter?: number;
}

export interface BranchSummaryDraft {
  type: "branch_summary";
  /** pi 0.73: the new leaf's id; pi 1.5: the leaf being left; "root" when there is none. */
  fromId: string;
  summary: string;
  details?: unknown;
  /** pi 1.5: the summary call's usage. */
  usage?: Usage;
  fromHook?: boolean;
  /** omp: set for an omp branch summary (omp's flag; pi's fromHook means nothing to omp). */
  fromExtension?: boolean;
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

/** omp's rename record (SessionManager.setSessionName). */
export interface TitleChangeDraft {
  type: "title_change";
  title: string;
  source: "auto" | "user";
  previousTitle?: string;
}

/** What a runner asks the writer to append. */
export type EntryDraft = CompactionDraft | BranchSummaryDraft | CustomDraft | LabelDraft | SessionInfoDraft | TitleChangeDraft;

export type WrittenEntry = CompactionEntry | BranchSummaryEntry | CustomEntry | LabelEntry | SessionInfoEntry | TitleChangeEntry;

/** The entry object exactly as pi would build it for this draft and placement. */
export function buildEntry(draft: EntryDraft, at: EntryPlacement): WrittenEntry {
  switch (draft.type) {
    case "compaction":
      if (draft.fromExtension !== undefined) {
        // omp's appendCompaction key order.
        return {
          type: "compaction",
          id: at.id,
          parentId: at.parentId,
          timestamp: at.timestamp,
          summary: draft.summary,
          shortSummary: draft.shortSummary,
          firstKeptEntryId: draft.firstKeptEntryId ?? at.id,
          tokensBefore: draft.tokensBefore,
          tokensAfter: draft.tokensAfter,
          method: draft.method,
          details: draft.details,
          fromExtension: draft.fromExtension,
        };
      }
      return {
        type: "compaction",
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
        summary: draft.summary,
        firstKeptEntryId: draft.firstKeptEntryId ?? at.id,
        tokensBefore: draft.tokensBefore,
        details: draft.details,
        usage: draft.usage,
        fromHook: draft.fromHook,
        ...(draft.systemMessage ? { systemMessage: { ...draft.systemMessage, timestamp: new Date(at.timestamp).getTime() } } : {}),
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
        usage: draft.usage,
        fromHook: draft.fromHook,
        fromExtension: draft.fromExtension,
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
    case "title_change":
      return {
        type: "title_change",
        id: at.id,
        parentId: at.parentId,
        timestamp: at.timestamp,
        title: draft.title,
        source: draft.source,
        previousTitle: draft.previousTitle,
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
