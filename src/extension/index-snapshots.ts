// The extension's index snapshots (core/session/snapshot/index-snapshot.ts), in its
// global storage (`index/`, beside the catalogue). A big session with no usable
// snapshot is indexed and snapshotted by the index child process
// (dist/index-child.js), and the host opens it from that snapshot: the host
// never does the exact read of a big file nor encodes a snapshot. Restricted
// Mode launches no process, and a child that is missing or fails is asked again
// only after a back-off (30 s, 2 min, 10 min, then not until the window
// reloads; one log line per change): meanwhile the host reads the file itself
// and writes the snapshot a little after the open, never on the path of the
// first rows.
import { join } from "node:path";
import type * as vscode from "vscode";
import { IndexChild } from "../core/session/index-child/index-child-client";
import { IndexSnapshots } from "../core/session/snapshot/index-snapshot";
import { isTrusted } from "./trust";

const WRITE_AFTER_MS = 2000;

export function extensionIndexSnapshots(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): IndexSnapshots {
  const child = new IndexChild(join(context.extensionPath, "dist", "index-child.js"), { warn: (m) => log.warn(m) });
  context.subscriptions.push(child);
  return new IndexSnapshots(join(context.globalStorageUri.fsPath, "index"), {
    defer: (write) => void setTimeout(write, WRITE_AFTER_MS),
    log: (line) => log.warn(line),
    builder: () => (isTrusted() ? child : undefined),
  });
}
