// The messages between the extension host and the index child (index-child.ts):
// the host asks for the index snapshot of one file, the child answers once it
// is written (or why not). Data crossing a process boundary: nothing is used
// that does not pass these checks.

import type { SnapshotBuildRequest } from "../snapshot/index-snapshot.js";

/** Host → child: build (or bring up to date) the snapshot of `path` in `dir`, with the host's IndexSnapshots rules. */
export interface IndexChildRequest extends SnapshotBuildRequest {
  type: "index";
  id: number;
}

/**
 * Child → host. "written": the snapshot now describes the file as the child
 * read it; "current": a snapshot that describes the file was already there;
 * "not-written": the read cannot be continued from (or the file changed while
 * it was read, or the write failed: `why`).
 */
export interface IndexChildReply {
  id: number;
  result: "written" | "current" | "not-written";
  /** The child's CPU for this request (ms). */
  cpuMs: number;
  why?: string;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const RESULTS: readonly string[] = ["written", "current", "not-written"];

export function validIndexChildRequest(m: unknown): IndexChildRequest | undefined {
  if (!isObj(m) || m.type !== "index" || !isCount(m.id) || typeof m.path !== "string" || typeof m.skim !== "boolean" || typeof m.dir !== "string") return undefined;
  if (!isCount(m.minFileBytes) || !isCount(m.rewriteAppendedBytes) || !isCount(m.maxFolderBytes)) return undefined;
  return { type: "index", id: m.id, path: m.path, skim: m.skim, dir: m.dir, minFileBytes: m.minFileBytes, rewriteAppendedBytes: m.rewriteAppendedBytes, maxFolderBytes: m.maxFolderBytes };
}

export function validIndexChildReply(m: unknown): IndexChildReply | undefined {
  if (!isObj(m) || !isCount(m.id) || typeof m.result !== "string" || !RESULTS.includes(m.result)) return undefined;
  if (typeof m.cpuMs !== "number" || !Number.isFinite(m.cpuMs) || (m.why !== undefined && typeof m.why !== "string")) return undefined;
  return { id: m.id, result: m.result as IndexChildReply["result"], cpuMs: m.cpuMs, ...(m.why !== undefined ? { why: m.why as string } : {}) };
}
