// A deleted file's row in the summary panel's manifest: its last content as the
// session holds it, in a read-only document, or a message saying why there is none.
import { basename } from "node:path";
import * as vscode from "vscode";
import { fileChangeSteps, lastContentOf, reconstructFileVersions } from "../../core/file-history";
import { recordedCwd } from "../../core/session/open/session-info";
import { notDone, ok, type CommandResult } from "../command-result";
import type { ReadOnlyDocuments } from "../read-only-documents";
import type { Services } from "../services";

export const SHOW_LAST_CONTENT_COMMAND_ID = "_piSessions.showLastContent";

export async function showLastContent(services: Services, documents: ReadOnlyDocuments, raw: unknown): Promise<CommandResult<{ entryId: string }>> {
  const args = (typeof raw === "object" && raw !== null ? raw : {}) as { sessionPath?: unknown; path?: unknown };
  if (typeof args.sessionPath !== "string" || typeof args.path !== "string") return notDone("not-applicable", "No file.");
  const name = basename(args.path);
  const session = await services.store.get(args.sessionPath);
  const steps = fileChangeSteps(session.entries(), args.path, { cwd: recordedCwd(session) ?? "/" });
  const last = lastContentOf(reconstructFileVersions(steps));
  if (!last.known) {
    void vscode.window.showInformationMessage(`${name} no longer exists, and there is no earlier content to show: ${last.reason}.`);
    return notDone("not-applicable", last.reason);
  }
  const note = last.laterUnknown ? ", changed later in ways the session does not hold" : "";
  const document = await vscode.workspace.openTextDocument(documents.uriFor(name, "last-content", last.content, "by-name"));
  await vscode.window.showTextDocument(document, { preview: true });
  void vscode.window.setStatusBarMessage(`Pi Sessions: ${name} as the session last held it (after entry ${last.entryId}${note}); the file itself is deleted.`, 8000);
  return ok({ entryId: last.entryId });
}
