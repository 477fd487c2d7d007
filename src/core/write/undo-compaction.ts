// Undoing a compaction: move the leaf back to the compaction's parent, where
// the context is exactly what it was before the compaction. Persisted like any
// navigation (a `custom` entry under the parent); the compaction stays in the
// file, on a branch of its own.

import type { LoadedSession } from "../session/open/open-session.js";
import type { CompactionEntry } from "../session/format/types.js";
import { persistLeafMove, type NavigateResult } from "./run-navigate.js";
import { requireEntry, RunInputError, writerPiVersion, type PiVersionOption } from "./run-common.js";

export interface UndoCompactionOptions extends PiVersionOption {
  session: LoadedSession;
  /** Default: the last compaction on the path to the leaf. */
  compactionId?: string;
  /** Default: the file's last entry. */
  leafId?: string;
  dryRun?: boolean;
  now?: () => Date;
}

export interface UndoCompactionResult extends NavigateResult {
  compaction: CompactionEntry;
}

export function undoCompaction(options: UndoCompactionOptions): UndoCompactionResult {
  const { session } = options;
  if (options.leafId !== undefined) requireEntry(session, options.leafId, "leaf");
  const oldLeafId = options.leafId ?? session.index.leafId;
  let compaction: CompactionEntry | undefined;
  if (options.compactionId !== undefined) {
    requireEntry(session, options.compactionId, "compaction");
    const entry = session.entry(options.compactionId);
    if (entry?.type !== "compaction") throw new RunInputError("not-a-compaction", `${session.path}: entry ${options.compactionId} is a ${entry?.type ?? "missing entry"}, not a compaction`);
    compaction = entry;
  } else {
    const path = session.pathTo(oldLeafId);
    for (let i = path.length - 1; i >= 0 && !compaction; i--) if (path[i]!.type === "compaction") compaction = path[i] as CompactionEntry;
    if (!compaction) throw new RunInputError("no-compaction", `${session.path}: no compaction on the branch ending at ${oldLeafId ?? "(empty)"} to undo`);
  }
  const newLeafId = compaction.parentId && session.index.get(compaction.parentId) ? compaction.parentId : null;
  const piVersion = writerPiVersion(session, options);
  const moved = persistLeafMove(
    session,
    { newLeafId, data: { fromLeafId: oldLeafId, targetId: newLeafId ?? "root", undoCompactionId: compaction.id } },
    { ...options, piVersion },
  );
  return { ...moved, written: moved.outcome === "written", newLeafId, oldLeafId, compaction, piVersion };
}
