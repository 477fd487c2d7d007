// The virtual documents the extension opens (a file before/after a session's
// changes, Show Context's markdown): read-only by construction (a content
// provider's documents cannot be edited, saved or marked unsaved), and given a
// language only where that is safe. A language feeds checkers (TypeScript's,
// JSON's, any installed linter) that would fill the Problems panel with errors
// about text that is not a file: a fragment (an edit's replaced text, the list
// of a session's changes) is opened as plain text; whole content keeps the
// language its name gives (coloured, like the file), on a scheme no checker
// treats as a project file.
import * as vscode from "vscode";

export type DocumentLanguage =
  /** The language of `name` (whole content of such a file). */
  | "by-name"
  /** Plain text: fragments, anything a checker would misread. */
  | "plain";

const KEPT = 64;

export class ReadOnlyDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private counter = 0;
  private readonly registration: vscode.Disposable;

  constructor(readonly scheme: string) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(scheme, this);
  }

  /** A URI whose document shows `content`, named `name` (under `side`: "before", "after", "context"…). */
  uriFor(name: string, side: string, content: string, language: DocumentLanguage): vscode.Uri {
    const key = `${++this.counter}`;
    this.contents.set(key, content);
    if (this.contents.size > KEPT) this.contents.delete(this.contents.keys().next().value!);
    // The language is detected from the path's last extension: `.txt` makes any name plain text.
    const file = language === "plain" ? `${name}.txt` : name;
    return vscode.Uri.from({ scheme: this.scheme, path: `/${key}/${side}/${file}` });
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
