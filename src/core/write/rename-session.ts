// Naming a session, as pi's appendSessionInfo does: a `session_info` entry
// appended as a child of the leaf. The name is pi 1.5's form (runs of CR/LF
// become one space, then trimmed), which pi 0.73 reads back the same (it only
// trims). pi refuses an empty name (/name, the /resume rename), and so does this.

import { checkWritable, commitAppend, planAppend } from "../session/append/append.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { SessionInfoEntry } from "../session/format/types.js";
import { RunInputError, type RunOutcome } from "./run-common.js";

export interface RenameOptions {
  session: LoadedSession;
  name: string;
  dryRun?: boolean;
  now?: () => Date;
}

export interface RenameResult {
  outcome: RunOutcome;
  written: boolean;
  entry: SessionInfoEntry;
  /** The name pi will show. */
  name: string;
  previousName: string | null;
}

/** pi 1.5.2's appendSessionInfo sanitising. */
export function sanitizeSessionName(name: string): string {
  return name.replace(/[\r\n]+/g, " ").trim();
}

export function renameSession(options: RenameOptions): RenameResult {
  const { session } = options;
  const name = sanitizeSessionName(options.name);
  if (!name) throw new RunInputError("empty-name", `${session.path ?? "session"}: the name is empty; pi does not set an empty session name`);
  checkWritable(session);
  const planned = planAppend(session, [{ type: "session_info", name }], { now: options.now });
  const entry = planned.entries[0] as SessionInfoEntry;
  const previousName = session.index.sessionName ?? null;
  if (options.dryRun) return { outcome: "dry-run", written: false, entry, name, previousName };
  commitAppend(planned);
  return { outcome: "written", written: true, entry, name, previousName };
}
