// The extension's index snapshots (core/session/index-snapshot.ts), in its
// global storage (`index/`, beside the catalogue). A snapshot is written a
// little after the open that read the file, never on the path of the first rows.
import { join } from "node:path";
import type * as vscode from "vscode";
import { IndexSnapshots } from "../core/session/index-snapshot";

const WRITE_AFTER_MS = 2000;

export function extensionIndexSnapshots(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): IndexSnapshots {
  return new IndexSnapshots(join(context.globalStorageUri.fsPath, "index"), {
    defer: (write) => void setTimeout(write, WRITE_AFTER_MS),
    log: (line) => log.warn(line),
  });
}
