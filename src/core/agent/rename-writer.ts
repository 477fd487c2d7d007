// How an agent names a session: the name as it stores it, what it refuses, the
// entry it appends (and for omp the title slot rewritten with it), what the
// user is told. Pure: write/rename-session.ts checks the file and commits the
// write. pi's (0.73 and 1.5): as pi's appendSessionInfo, a `session_info`
// entry; the name in pi 1.5's form (runs of CR/LF become one space, then
// trimmed), which pi 0.73 reads back the same (it only trims).

import type { TitleSlot } from "../session/format/title-slot.js";
import type { SessionInfoDraft, TitleChangeDraft } from "../session/format/serialize-entry.js";
import type { WriterRefusal } from "./fork-writer.js";

/** What a rename writer reads of the session. */
export interface RenameSource {
  path: string | undefined;
  /** Its title slot (line 1 of an omp file), or null. */
  titleSlot: TitleSlot | null;
  /** The latest `session_info` name (pi's). */
  sessionInfoName: string | undefined;
  /** The header's session id. */
  sessionId: string | undefined;
  /** omp's agent dir (its history.db caches the welcome screen's titles); default omp's own. */
  ompAgentDir?: string;
}

/** A title cache the agent keeps beside the file (omp's history.db session_titles), updated once the rename is written. */
export interface TitleCacheUpdate {
  file: string;
  sessionId: string | undefined;
  title: string;
  /** What to tell the user when it could not be updated (the agent may keep showing an older name), or undefined: nothing is stale. */
  staleNotice: string | undefined;
}

export interface RenamePlan {
  /** The entry appended as a child of the leaf. */
  draft: SessionInfoDraft | TitleChangeDraft;
  /** The name the agent will show. */
  name: string;
  previousName: string | null;
  /** Line 1 rewritten in place with the append (omp's title slot, under omp's lock), or undefined: an append only. */
  titleSlot?: string;
  /** omp: its welcome screen's title cache to update after the write (write/ does, with node:sqlite). */
  titleCache?: TitleCacheUpdate;
}

export interface RenameWriter {
  /** The name as this agent stores it; "" when nothing is left (the agent sets no empty name). */
  clean(name: string): string;
  /** Why this agent would not show a new name of this session (omp: no title slot), or undefined; asked once the file is checked writable. */
  refuse(source: RenameSource): WriterRefusal | undefined;
  /** The write for a cleaned, non-empty name at `now` (ISO time). */
  plan(source: RenameSource, name: string, now: string): RenamePlan;
  /** What an input box for the new name says, in the agent's words. */
  readonly prompt: string;
}

/** pi 1.5.2's appendSessionInfo sanitising. */
export function sanitizeSessionName(name: string): string {
  return name.replace(/[\r\n]+/g, " ").trim();
}

export const PI_RENAME_WRITER: RenameWriter = Object.freeze({
  clean: sanitizeSessionName,
  refuse: () => undefined,
  plan: (source, name) => ({ draft: { type: "session_info", name }, name, previousName: source.sessionInfoName ?? null }),
  prompt: "The session's name, as pi's /name sets it (shown in pi's /resume and here).",
} satisfies RenameWriter);
