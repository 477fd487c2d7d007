// Which entries of a session touched which files, and how: the manifest's
// letters attributed to the tool call or `!` command that caused them.

import type { SessionEntry } from "../session/types";
import type { FileOp } from "../files-touched/actions";
import { forEachFileActionSource, type CollectFilesTouchedOptions } from "../files-touched/collect";
import { FilesLedger } from "../files-touched/ledger";
import { displayPathOf, normalizeAbsolute } from "../files-touched/paths";

export interface FileTouch {
  entryId: string;
  /** The entry's ISO timestamp, when it has one. */
  timestamp?: string;
  /** Absolute path (see files-touched paths). */
  path: string;
  displayPath: string;
  op: FileOp;
  /** The tool's name (`bashExecution` for a `!` command). */
  tool: string;
  command?: string;
  toolCallId?: string;
}

/** Every letter every tool call gave every file, in session order. */
export function collectFileTouches(entries: readonly SessionEntry[], opts: CollectFilesTouchedOptions): FileTouch[] {
  const ctx = { sessionCwd: normalizeAbsolute(opts.cwd) };
  const timestamps = new Map<string, string>();
  for (const entry of entries) if (typeof entry.timestamp === "string") timestamps.set(entry.id, entry.timestamp);
  const touches: FileTouch[] = [];
  let current: Omit<FileTouch, "path" | "displayPath" | "op"> | undefined;
  const ledger = new FilesLedger((path, op) => {
    if (current) touches.push({ ...current, path, displayPath: displayPathOf(path, ctx), op });
  });
  forEachFileActionSource(entries, opts, (found, source) => {
    const timestamp = timestamps.get(source.entryId);
    current = {
      entryId: source.entryId,
      tool: source.tool,
      ...(timestamp !== undefined ? { timestamp } : {}),
      ...(source.command !== undefined ? { command: source.command } : {}),
      ...(source.toolCallId !== undefined ? { toolCallId: source.toolCallId } : {}),
    };
    for (const action of found.actions) ledger.apply(action);
  });
  current = undefined;
  return touches;
}

/** The touches of one file, newest first, one row per entry (its letters merged in R W E M D order). */
export function touchesOfFile(touches: readonly FileTouch[], path: string): Array<Omit<FileTouch, "op"> & { ops: string }> {
  const byCall = new Map<string, Omit<FileTouch, "op"> & { ops: Set<FileOp> }>();
  for (const t of touches) {
    if (t.path !== path) continue;
    const key = `${t.entryId}\u0000${t.toolCallId ?? ""}\u0000${t.command ?? ""}`;
    const row = byCall.get(key) ?? { ...t, ops: new Set<FileOp>() };
    row.ops.add(t.op);
    byCall.set(key, row);
  }
  const order: readonly FileOp[] = ["R", "W", "E", "M", "D"];
  return [...byCall.values()].reverse().map((row) => ({ ...row, ops: order.filter((op) => row.ops.has(op)).join("") }));
}
