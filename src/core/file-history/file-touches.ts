// Which entries of a session touched which files, and how: the manifest's
// letters attributed to the tool call or `!` command that caused them.

import type { SessionEntry } from "../session/format/types";
import type { FileOp } from "../files-touched/actions";
import type { CollectFilesTouchedOptions } from "../files-touched/collect";
import type { FileTouch } from "./file-touch";
import { buildTouchManifest, touchesOfManifest } from "./touch-manifest";

export type { FileTouch } from "./file-touch";

/** Every letter every tool call gave every file, in session order. */
export function collectFileTouches(entries: readonly SessionEntry[], opts: CollectFilesTouchedOptions): FileTouch[] {
  return touchesOfManifest(buildTouchManifest(entries, opts.cwd));
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
