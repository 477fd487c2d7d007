// What the panel needs from a compaction or branch_summary entry, read
// defensively: the entry comes from a session file (or a runner's proposal)
// and any field may be missing or of the wrong type. Pure (no vscode).

import type { SummaryKind } from "../../webview/protocol";

/** A files-touched row as the runner stores it in `details.piSessions.filesTouched`. */
export interface RecordedFile {
  path: string;
  displayPath?: string;
  ops: string;
}

export interface SummaryEntryFacts {
  kind: SummaryKind;
  id: string | undefined;
  parentId: string | null | undefined;
  summary: string;
  timestamp: string | undefined;
  tokensBefore?: number;
  /** Only when the runner stored it (`details.piSessions.tokensAfter`). */
  tokensAfter?: number;
  firstKeptEntryId?: string;
  fromId?: string;
  /** "provider/id", "digest", "hook", or MODEL_NOT_RECORDED. */
  model: string;
  /** `details.piSessions.filesTouched` when it is a list of well-formed rows. */
  recordedFiles?: RecordedFile[];
  /** pi's own `details.readFiles` / `details.modifiedFiles` (branch summaries written by pi). */
  piFileLists?: { readFiles: string[]; modifiedFiles: string[] };
  /** Written inside pi by the pi-sessions pi extension (`details.piSessions.writer`), with pi's reason when it gave one. */
  writtenInPi?: { reason?: string };
}

/** pi itself does not record which model wrote a summary. */
export const MODEL_NOT_RECORDED = "not recorded";

type UnknownRecord = Record<string, unknown>;

function isRecord(x: unknown): x is UnknownRecord {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function nonEmptyString(x: unknown): string | undefined {
  return typeof x === "string" && x.length > 0 ? x : undefined;
}

function count(x: unknown): number | undefined {
  return typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : undefined;
}

function stringList(x: unknown): string[] | undefined {
  return Array.isArray(x) ? x.filter((item): item is string => typeof item === "string" && item.length > 0) : undefined;
}

function recordedFiles(x: unknown): RecordedFile[] | undefined {
  if (!Array.isArray(x)) return undefined;
  const files: RecordedFile[] = [];
  for (const row of x) {
    if (!isRecord(row)) continue;
    const path = nonEmptyString(row.path);
    if (!path || typeof row.ops !== "string") continue;
    const displayPath = nonEmptyString(row.displayPath);
    files.push({ path, ops: row.ops, ...(displayPath ? { displayPath } : {}) });
  }
  return files;
}

function modelLabel(entry: UnknownRecord, details: UnknownRecord | undefined, piSessions: UnknownRecord | undefined): string {
  if (piSessions?.digest === true) return "digest";
  const model = nonEmptyString(details?.model);
  if (model) return model;
  if (entry.fromHook === true) return "hook";
  return MODEL_NOT_RECORDED;
}

/** The facts of a compaction / branch_summary entry; undefined for any other value. */
export function readSummaryEntry(entry: unknown): SummaryEntryFacts | undefined {
  if (!isRecord(entry) || (entry.type !== "compaction" && entry.type !== "branch_summary")) return undefined;
  const kind: SummaryKind = entry.type;
  const details = isRecord(entry.details) ? entry.details : undefined;
  const piSessions = isRecord(details?.piSessions) ? details.piSessions : undefined;
  const facts: SummaryEntryFacts = {
    kind,
    id: nonEmptyString(entry.id),
    parentId: entry.parentId === null ? null : nonEmptyString(entry.parentId),
    summary: typeof entry.summary === "string" ? entry.summary : "",
    timestamp: nonEmptyString(entry.timestamp),
    model: modelLabel(entry, details, piSessions),
  };
  const tokensAfter = count(piSessions?.tokensAfter);
  if (tokensAfter !== undefined) facts.tokensAfter = tokensAfter;
  if (kind === "compaction") {
    const tokensBefore = count(entry.tokensBefore);
    if (tokensBefore !== undefined) facts.tokensBefore = tokensBefore;
    const firstKept = nonEmptyString(entry.firstKeptEntryId);
    if (firstKept) facts.firstKeptEntryId = firstKept;
  } else {
    const fromId = nonEmptyString(entry.fromId);
    if (fromId) facts.fromId = fromId;
  }
  const files = recordedFiles(piSessions?.filesTouched);
  if (files) facts.recordedFiles = files;
  if (piSessions?.writer === "pi-extension") {
    const reason = nonEmptyString(piSessions.reason);
    facts.writtenInPi = reason ? { reason } : {};
  }
  const readFiles = stringList(details?.readFiles);
  const modifiedFiles = stringList(details?.modifiedFiles);
  if (readFiles || modifiedFiles) facts.piFileLists = { readFiles: readFiles ?? [], modifiedFiles: modifiedFiles ?? [] };
  return facts;
}
