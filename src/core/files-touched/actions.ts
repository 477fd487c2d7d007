// What a tool call or a shell command did to files, before the ledger folds
// those actions into one line per file.

/** R read content, W created/overwritten, E changed in place, M moved here, D deleted. */
export type FileOp = "R" | "W" | "E" | "M" | "D";

export const OP_ORDER: readonly FileOp[] = ["R", "W", "E", "M", "D"];

export type FileAction =
  /** One file read, written, edited or deleted. */
  | { kind: "touch"; op: "R" | "W" | "E" | "D"; path: string }
  /**
   * `from` renamed to `to`. `into` true: `to` is a directory and the file lands
   * at `to/<basename>`; "maybe": `to` is a directory only if the ledger already
   * knows it as one (an ancestor of a touched file, a mkdir or cd target).
   */
  | { kind: "move"; from: string; to: string; into: boolean | "maybe" }
  /** Recursive delete (`rm -r X`): deletes X if it is a known file, else every known file under X. */
  | { kind: "delete-tree"; path: string }
  /** A path known to be a directory (mkdir, cd): no letters, only a hint for moves. */
  | { kind: "directory"; path: string };

/** True for a well-formed FileAction (for actions read back from a cache on disk). */
export function isFileAction(a: unknown): a is FileAction {
  if (typeof a !== "object" || a === null || Array.isArray(a)) return false;
  const v = a as Record<string, unknown>;
  switch (v.kind) {
    case "touch":
      return (v.op === "R" || v.op === "W" || v.op === "E" || v.op === "D") && typeof v.path === "string";
    case "move":
      return typeof v.from === "string" && typeof v.to === "string" && (typeof v.into === "boolean" || v.into === "maybe");
    case "delete-tree":
    case "directory":
      return typeof v.path === "string";
    default:
      return false;
  }
}
