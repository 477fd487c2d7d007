// Read-only documents for the diff editor: a file's content before and after a
// session's changes, as replayed from the session (never the file on disk).
import * as vscode from "vscode";

export const CHANGE_DOCUMENT_SCHEME = "pi-sessions-change";
const KEPT = 64;

export class ChangeDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private counter = 0;
  private readonly registration = vscode.workspace.registerTextDocumentContentProvider(CHANGE_DOCUMENT_SCHEME, this);

  /** A URI whose document shows `content`; the path ends with the file's name so the language is detected. */
  uriFor(fileName: string, side: string, content: string): vscode.Uri {
    const key = `${++this.counter}`;
    this.contents.set(key, content);
    if (this.contents.size > KEPT) this.contents.delete(this.contents.keys().next().value!);
    return vscode.Uri.from({ scheme: CHANGE_DOCUMENT_SCHEME, path: `/${key}/${side}/${fileName}` });
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    const key = uri.path.split("/")[1] ?? "";
    return this.contents.get(key) ?? "(no longer available: run the command again)";
  }

  dispose(): void {
    this.registration.dispose();
    this.contents.clear();
  }
}
