// Moving the leaf without a summary. pi keeps such a move (/tree without a
// summary) only in memory; to persist it, a `custom` entry of our own type is
// appended as a child of the new leaf. pi ignores `custom` entries when it
// builds the model's context, and resumes at the last entry in the file, so
// after reopening, pi's context is the new leaf's context. Nothing is deleted.
// omp does the same with a namespaced `custom` entry (spec §8 writing tier 9);
// an omp session gets it through omp's append protocol.

import { resolveNavigationTarget } from "../branch/index.js";
import { checkWritable, commitAppend, planAppend } from "../session/append/append.js";
import type { LoadedSession } from "../session/open/open-session.js";
import type { CustomEntry, LabelEntry } from "../session/format/types.js";
import type { EntryDraft } from "../session/format/serialize-entry.js";
import type { PiVersion } from "../session/format/pi-version.js";
import { requireEntry, RunInputError, writerAgent, writerPiVersion, type AgentOption, type PiVersionOption, type RunOutcome } from "./run-common.js";
import type { AgentName } from "../session/format/agent-version.js";

export const NAVIGATE_CUSTOM_TYPE = "pi-sessions/navigate";

export interface NavigateData {
  fromLeafId: string | null;
  targetId: string;
  /** Set by undoCompaction: the compaction this move undoes. */
  undoCompactionId?: string;
}

export interface NavigateOptions extends PiVersionOption, AgentOption {
  session: LoadedSession;
  /** The entry picked in the tree. A user message or custom_message is re-edited: the leaf goes to its parent. */
  targetId: string;
  /** The leaf being left; default the file's last entry. */
  leafId?: string;
  /** A label for the target (pi's /tree label option), appended after the move. */
  label?: string;
  dryRun?: boolean;
  now?: () => Date;
}

export interface NavigateResult {
  outcome: RunOutcome;
  written: boolean;
  /** The `custom` entry that persists the move; null when the leaf is already there. */
  entry: CustomEntry | null;
  /** The label entry, when a label was given. */
  labelEntry: LabelEntry | null;
  newLeafId: string | null;
  oldLeafId: string | null;
  /** For a user message / custom_message target: its text, to edit and send again. */
  editorText?: string;
  piVersion: PiVersion;
}

/** Appends the navigation entry (and a label) under `newLeafId`; shared by navigate, undo and branch summaries without content. */
export function persistLeafMove(
  session: LoadedSession,
  move: { newLeafId: string | null; data: NavigateData; label?: { targetId: string; label: string } },
  options: { dryRun?: boolean; now?: () => Date; piVersion?: PiVersion; agent?: AgentName },
): { outcome: RunOutcome; entry: CustomEntry | null; labelEntry: LabelEntry | null } {
  const dialect = writerAgent(session, options);
  checkWritable(session, { piVersion: options.piVersion, dialect });
  const drafts: EntryDraft[] = [];
  // Already where pi resumes: nothing to persist.
  if (move.newLeafId !== session.index.leafId) {
    drafts.push({ type: "custom", customType: NAVIGATE_CUSTOM_TYPE, data: move.data });
  }
  if (move.label) drafts.push({ type: "label", targetId: move.label.targetId, label: move.label.label });
  if (drafts.length === 0) return { outcome: "unchanged", entry: null, labelEntry: null };
  const planned = planAppend(session, drafts, { parentId: move.newLeafId, now: options.now, piVersion: options.piVersion, dialect });
  const entry = (planned.entries.find((e) => e.type === "custom") as CustomEntry | undefined) ?? null;
  const labelEntry = (planned.entries.find((e) => e.type === "label") as LabelEntry | undefined) ?? null;
  if (options.dryRun) return { outcome: "dry-run", entry, labelEntry };
  commitAppend(planned);
  return { outcome: "written", entry, labelEntry };
}

export function runNavigate(options: NavigateOptions): NavigateResult {
  const { session, targetId } = options;
  requireEntry(session, targetId, "target");
  const oldLeafId = options.leafId ?? session.index.leafId;
  if (options.leafId !== undefined) requireEntry(session, options.leafId, "leaf");
  const target = session.entry(targetId);
  if (!target) throw new RunInputError("unknown-entry", `${session.path}: no entry with id '${targetId}' (target)`);
  const { newLeafId, editorText } = resolveNavigationTarget(target);
  const piVersion = writerPiVersion(session, options);
  const moved = persistLeafMove(
    session,
    { newLeafId, data: { fromLeafId: oldLeafId, targetId }, label: options.label ? { targetId, label: options.label } : undefined },
    { ...options, piVersion },
  );
  return {
    ...moved,
    piVersion,
    written: moved.outcome === "written",
    newLeafId,
    oldLeafId,
    ...(editorText !== undefined ? { editorText } : {}),
  };
}
