// Files ⇄ sessions in VS Code: the two commands on a file, sharing one cache of per-session touches.
import { join } from "node:path";
import * as vscode from "vscode";
import type { Services } from "../services";
import { ChangeDocuments } from "./change-documents";
import { FileTouchIndex } from "./file-touch-index";
import { SESSION_CHANGES_TO_FILE_COMMAND_ID, sessionChangesToFile } from "./session-changes-to-file";
import { SESSIONS_TOUCHING_FILE_COMMAND_ID, sessionsTouchingFile } from "./sessions-touching-file";

export { SESSION_CHANGES_TO_FILE_COMMAND_ID, SESSIONS_TOUCHING_FILE_COMMAND_ID };

export function registerFileSessionCommands(services: Services): vscode.Disposable {
  const index = new FileTouchIndex(join(services.context.globalStorageUri.fsPath, "catalogue"), () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "/");
  const documents = new ChangeDocuments();
  return vscode.Disposable.from(
    index,
    documents,
    vscode.commands.registerCommand(SESSIONS_TOUCHING_FILE_COMMAND_ID, (raw: unknown) => sessionsTouchingFile(services, index, raw)),
    vscode.commands.registerCommand(SESSION_CHANGES_TO_FILE_COMMAND_ID, (raw: unknown) => sessionChangesToFile(services, index, documents, raw)),
  );
}
