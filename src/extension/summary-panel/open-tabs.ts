// The files open in editor tabs right now (every tab group), as fsPath
// strings: the same absolute form the manifest rows carry.
import * as vscode from "vscode";

function tabUris(input: unknown): vscode.Uri[] {
  if (input instanceof vscode.TabInputText) return [input.uri];
  if (input instanceof vscode.TabInputTextDiff) return [input.modified, input.original];
  if (input instanceof vscode.TabInputCustom) return [input.uri];
  if (input instanceof vscode.TabInputNotebook) return [input.uri];
  if (input instanceof vscode.TabInputNotebookDiff) return [input.modified, input.original];
  return [];
}

export function openTabPaths(): Set<string> {
  const paths = new Set<string>();
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      for (const uri of tabUris(tab.input)) {
        // Only files on disk (code-server's remote files are vscode-remote: URIs with the same fsPath).
        if (uri.scheme === "file" || uri.scheme === "vscode-remote") paths.add(uri.fsPath);
      }
    }
  }
  return paths;
}
