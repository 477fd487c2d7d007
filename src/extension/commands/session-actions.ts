// Registers the session actions: continue in pi (pi-terminal.ts), curate
// without pi (curate.ts) and trash / clean up (trash.ts). One call from activate().
import * as vscode from "vscode";
import type { Services } from "../services";
import { CLEAR_LABEL_COMMAND_ID, CLONE_BRANCH_COMMAND_ID, clearLabelCommand, cloneBranch, FORK_HERE_COMMAND_ID, forkSessionHere, RENAME_COMMAND_ID, renameSessionCommand, SET_LABEL_COMMAND_ID, setLabelCommand } from "./curate";
import { continueFromHere, CONTINUE_FROM_HERE_COMMAND_ID, COPY_RESUME_COMMAND_ID, copyResumeCommand, FORK_IN_PI_COMMAND_ID, forkInPi, OPEN_IN_PI_COMMAND_ID, openInPi } from "./pi-terminal";
import { CLEAN_UP_COMMAND_ID, cleanUp, MOVE_TO_TRASH_COMMAND_ID, moveToTrash } from "./trash";

export function registerSessionActions(services: Services): vscode.Disposable[] {
  const commands: [string, (services: Services, raw: unknown, selected?: unknown) => unknown][] = [
    [OPEN_IN_PI_COMMAND_ID, openInPi],
    [FORK_IN_PI_COMMAND_ID, forkInPi],
    [CONTINUE_FROM_HERE_COMMAND_ID, continueFromHere],
    [COPY_RESUME_COMMAND_ID, copyResumeCommand],
    [RENAME_COMMAND_ID, renameSessionCommand],
    [SET_LABEL_COMMAND_ID, setLabelCommand],
    [CLEAR_LABEL_COMMAND_ID, clearLabelCommand],
    [FORK_HERE_COMMAND_ID, forkSessionHere],
    [CLONE_BRANCH_COMMAND_ID, cloneBranch],
    [MOVE_TO_TRASH_COMMAND_ID, moveToTrash],
    [CLEAN_UP_COMMAND_ID, cleanUp],
  ];
  return commands.map(([id, run]) => vscode.commands.registerCommand(id, (raw: unknown, selected?: unknown) => run(services, raw, selected)));
}
