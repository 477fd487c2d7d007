// Naming a session. pi: as pi's appendSessionInfo does, a `session_info` entry
// appended as a child of the leaf; the name is pi 1.5's form (runs of CR/LF
// become one space, then trimmed), which pi 0.73 reads back the same (it only
// trims). omp: as omp's setSessionName does for a file with a title slot, a
// `title_change` entry appended and the 256-byte slot on line 1 rewritten in
// place, under omp's publish lock (omp reads its name only from the slot; a
// file without one is refused), then omp's welcome-screen title cache
// updated (omp-title-index.ts). Both refuse an empty name.

import { checkWritable, commitAppend, commitOmpRename, planAppend, WriteRefusedError } from "../session/append/append.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { SessionInfoEntry, TitleChangeEntry } from "../session/format/types.js";
import type { AgentName } from "../session/format/agent-version.js";
import { serializeTitleSlot, truncateTitleForSlot } from "../session/format/omp-title-slot-serialize.js";
import { defaultOmpDirs, ompHistoryDbFile } from "../agent/index.js";
import { recordOmpSessionTitle } from "./omp-title-index.js";
import { RunInputError, writerAgent, type AgentOption, type RunOutcome } from "./run-common.js";

export interface RenameOptions extends AgentOption {
  session: LoadedSession;
  name: string;
  /** omp's agent dir (its history.db caches the welcome screen's titles); default omp's own. */
  ompAgentDir?: string;
  dryRun?: boolean;
  now?: () => Date;
}

export interface RenameResult {
  outcome: RunOutcome;
  written: boolean;
  entry: SessionInfoEntry | TitleChangeEntry;
  /** The name the agent will show. */
  name: string;
  previousName: string | null;
  agent: AgentName;
  /** What the user should know about where the new name shows (omp: its welcome screen's cached titles). */
  notice?: string;
}

/**
 * What omp's welcome screen shows when its title cache (history.db) could not
 * be updated (omp-title-index.ts); its /resume reads the title slot.
 */
export const OMP_TITLE_CACHE_NOTICE =
  "omp's /resume shows the new name; omp's welcome screen may keep showing a name it cached earlier (history.db) until omp itself renames the session";

/** pi 1.5.2's appendSessionInfo sanitising. */
export function sanitizeSessionName(name: string): string {
  return name.replace(/[\r\n]+/g, " ").trim();
}

/** omp's SessionManager.#cleanTitle: control characters become spaces, runs of spaces one, trimmed. */
export function cleanOmpTitle(name: string): string {
  // eslint-disable-next-line no-control-regex
  return name.replace(/[\u0000-\u001f\u007f-\u009f]/g, " ").replace(/ +/g, " ").trim();
}

export function renameSession(options: RenameOptions): RenameResult {
  const agent = writerAgent(options.session, options);
  return agent === "omp" ? renameOmpSession(options) : renamePiSession(options);
}

function renamePiSession(options: RenameOptions): RenameResult {
  const { session } = options;
  const name = sanitizeSessionName(options.name);
  if (!name) throw new RunInputError("empty-name", `${session.path ?? "session"}: the name is empty; pi does not set an empty session name`);
  checkWritable(session);
  const planned = planAppend(session, [{ type: "session_info", name }], { now: options.now });
  const entry = planned.entries[0] as SessionInfoEntry;
  const previousName = session.index.sessionName ?? null;
  if (options.dryRun) return { outcome: "dry-run", written: false, entry, name, previousName, agent: "pi" };
  commitAppend(planned);
  return { outcome: "written", written: true, entry, name, previousName, agent: "pi" };
}

function renameOmpSession(options: RenameOptions): RenameResult {
  const { session } = options;
  const path = session.path ?? "session";
  const title = cleanOmpTitle(options.name);
  if (!title) throw new RunInputError("empty-name", `${path}: the name is empty; omp does not set an empty session name`);
  checkWritable(session, { dialect: "omp" });
  if (!session.titleSlot) {
    throw new WriteRefusedError(
      "no-title-slot",
      `${path}:1: this omp session has no title slot (it was started by pi); omp reads a name only from the slot, so a rename would not show in omp. Nothing was written`,
      session.path,
    );
  }
  const now = options.now ?? (() => new Date());
  const updatedAt = now().toISOString();
  const previousName = session.titleSlot.title.trim() ? session.titleSlot.title : null;
  const planned = planAppend(session, [{ type: "title_change", title, source: "user", previousTitle: previousName ?? undefined }], {
    now: () => new Date(updatedAt),
    dialect: "omp",
  });
  const entry = planned.entries[0] as TitleChangeEntry;
  const name = truncateTitleForSlot(title, "user", updatedAt);
  if (options.dryRun) return { outcome: "dry-run", written: false, entry, name, previousName, agent: "omp" };
  commitOmpRename(planned, serializeTitleSlot({ title, source: "user", updatedAt }));
  const sessionId = session.header?.id;
  const cache = sessionId ? recordOmpSessionTitle(ompHistoryDbFile(options.ompAgentDir ?? defaultOmpDirs().agentDir), sessionId, title) : undefined;
  // Never named before: omp cached no title, so nothing is stale.
  const stale = previousName !== null && !cache?.recorded;
  return { outcome: "written", written: true, entry, name, previousName, agent: "omp", ...(stale ? { notice: OMP_TITLE_CACHE_NOTICE } : {}) };
}
