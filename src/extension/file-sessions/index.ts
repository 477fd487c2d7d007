// Files ⇄ sessions in VS Code: the two commands on a file, sharing one cache of per-session touches.
import { join } from "node:path";
import * as vscode from "vscode";
import type { Services } from "../services";
import { ReadOnlyDocuments } from "../read-only-documents";
import { FileTouchIndex } from "./file-touch-index";
import { SESSION_CHANGES_TO_FILE_COMMAND_ID, sessionChangesToFile } from "./session-changes-to-file";
import { SESSIONS_TOUCHING_FILE_COMMAND_ID, sessionsTouchingFile } from "./sessions-touching-file";
import { SHOW_LAST_CONTENT_COMMAND_ID, showLastContent } from "./last-content";

export { SESSION_CHANGES_TO_FILE_COMMAND_ID, SESSIONS_TOUCHING_FILE_COMMAND_ID, SHOW_LAST_CONTENT_COMMAND_ID };

/** A file's content before and after a session's changes, as replayed from the session (never the file on disk). */
export const CHANGE_DOCUMENT_SCHEME = "pi-sessions-change";

export function registerFileSessionCommands(services: Services): vscode.Disposable {
  const index = new FileTouchIndex(join(services.context.globalStorageUri.fsPath, "catalogue"), () => vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? "/");
  const documents = new ReadOnlyDocuments(CHANGE_DOCUMENT_SCHEME);
  return vscode.Disposable.from(
    index,
    documents,
    vscode.commands.registerCommand(SESSIONS_TOUCHING_FILE_COMMAND_ID, (raw: unknown) => sessionsTouchingFile(services, index, raw)),
    vscode.commands.registerCommand(SESSION_CHANGES_TO_FILE_COMMAND_ID, (raw: unknown) => sessionChangesToFile(services, index, documents, raw)),
    vscode.commands.registerCommand(SHOW_LAST_CONTENT_COMMAND_ID, (raw: unknown) => showLastContent(services, documents, raw)),
  );
}
