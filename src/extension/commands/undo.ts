// Pi Sessions: Undo Last Compaction — moves the leaf back to the compaction's
// parent (the context is what it was before); the compaction stays in the
// file on a branch of its own. Given an entry id, that compaction is undone.
import * as vscode from "vscode";
import { undoCompaction, type UndoCompactionResult } from "../../core/write";
import { commandArgs } from "../command-args";
import { ok, type CommandResult } from "../command-result";
import { piVersionChoice } from "../pi-version-choice";
import { reportError } from "../error-actions";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";
import { isNotDone, sessionTarget } from "./session-target";

export const UNDO_COMMAND_ID = "piSessions.undoCompaction";

export async function undoLastCompaction(services: Services, raw: unknown): Promise<CommandResult<Pick<UndoCompactionResult, "written" | "outcome" | "newLeafId" | "oldLeafId"> & { compactionId: string; navigateEntryId: string | null }>> {
  const refused = refuseUntrusted("Undo Last Compaction", services.log);
  if (refused) return refused;
  const args = commandArgs(raw);
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const { path, session } = target;
  try {
    const compactionId = args.entryId && session.index.get(args.entryId)?.type === "compaction" ? args.entryId : undefined;
    const result = undoCompaction({ session, piVersion: piVersionChoice(session, services.settings()).version, ...(compactionId ? { compactionId } : {}) });
    await services.store.refresh(path);
    services.log.info(`undo compaction ${result.compaction.id} in ${path}: ${result.outcome}`);
    void vscode.window.showInformationMessage(
      result.written
        ? `Compaction undone: the leaf is back before it (the compaction stays in the file on its own branch).`
        : `The leaf is already before that compaction.`,
    );
    return ok({ written: result.written, outcome: result.outcome, newLeafId: result.newLeafId, oldLeafId: result.oldLeafId, compactionId: result.compaction.id, navigateEntryId: result.entry?.id ?? null });
  } catch (error) {
    return reportError(error, "Undo Last Compaction", { log: services.log, sessionPath: path });
  }
}
