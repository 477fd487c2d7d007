// Files ⇄ sessions in VS Code: the two commands on a file, sharing one cache of per-session touches.
import * as vscode from "vscode";
import type { Services } from "../services";
import { ChangeDocuments } from "./change-documents";
import { FileTouchIndex } from "./file-touch-index";
import { SESSION_CHANGES_TO_FILE_COMMAND_ID, sessionChangesToFile } from "./session-changes-to-file";
import { SESSIONS_TOUCHING_FILE_COMMAND_ID, sessionsTouchingFile } from "./sessions-touching-file";

export { SESSION_CHANGES_TO_FILE_COMMAND_ID, SESSIONS_TOUCHING_FILE_COMMAND_ID };

export function registerFileSessionCommands(services: Services): vscode.Disposable {
  const index = new FileTouchIndex(() => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "/");
  const documents = new ChangeDocuments();
  const forget = services.store.onDidChange(({ path }) => index.forget(path));
  return vscode.Disposable.from(
    documents,
    forget,
    vscode.commands.registerCommand(SESSIONS_TOUCHING_FILE_COMMAND_ID, (raw: unknown) => sessionsTouchingFile(services, index, raw)),
    vscode.commands.registerCommand(SESSION_CHANGES_TO_FILE_COMMAND_ID, (raw: unknown) => sessionChangesToFile(services, index, documents, raw)),
  );
}
