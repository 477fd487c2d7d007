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
