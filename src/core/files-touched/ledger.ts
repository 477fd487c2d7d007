// Folds file actions, in session order, into one record per file.
//
// Moves: the destination gets the source's letters plus M, the source is left
// with D only (`echo x > a; mv a b` → b "WM", a "D"); a later touch of the
// source adds letters again. A move or recursive delete of a directory the
// ledger knows (an ancestor of a recorded file, a mkdir or cd target) applies
// to every recorded file under it.

import type { FileAction, FileOp } from "./actions";
import { OP_ORDER } from "./actions";
import { basename, isInside, joinPath } from "./paths";

export interface LedgerRecord {
  path: string;
  ops: Set<FileOp>;
  /** Order of the last touch: higher is newer. */
  seq: number;
}

/** Told of every letter an action gives a file (not of letters a move carries over from its source). */
export type LedgerObserver = (path: string, op: FileOp) => void;

export class FilesLedger {
  private readonly files = new Map<string, LedgerRecord>();
  private readonly directories = new Set<string>();
  private seq = 0;

  constructor(private readonly observe?: LedgerObserver) {}

  private mark(rec: LedgerRecord, op: FileOp): void {
    rec.ops.add(op);
    this.observe?.(rec.path, op);
  }

  private record(path: string): LedgerRecord {
    let rec = this.files.get(path);
    if (!rec) {
      rec = { path, ops: new Set(), seq: 0 };
      this.files.set(path, rec);
      for (let dir = parentOf(path); dir !== undefined; dir = parentOf(dir)) {
        if (this.directories.has(dir)) break;
        this.directories.add(dir);
      }
    }
    rec.seq = ++this.seq;
    return rec;
  }

  isDirectory(path: string): boolean {
    return this.directories.has(path) && !this.files.has(path);
  }

  apply(action: FileAction): void {
    switch (action.kind) {
      case "touch":
        this.mark(this.record(action.path), action.op);
        return;
      case "directory":
        if (!this.files.has(action.path)) this.directories.add(action.path);
        return;
      case "delete-tree":
        if (this.files.has(action.path)) {
          this.mark(this.record(action.path), "D");
          return;
        }
        for (const rec of this.under(action.path)) this.mark(this.record(rec.path), "D");
        return;
      case "move": {
        let to = action.to;
        if (action.into === "maybe" && this.isDirectory(to)) to = joinPath(to, basename(action.from));
        if (!this.files.has(action.from) && this.isDirectory(action.from)) {
          for (const rec of this.under(action.from)) {
            this.moveFile(rec.path, to + rec.path.slice(action.from.length));
          }
          return;
        }
        this.moveFile(action.from, to);
        return;
      }
    }
  }

  private under(dir: string): LedgerRecord[] {
    return [...this.files.values()].filter((rec) => isInside(rec.path, dir));
  }

  private moveFile(from: string, to: string): void {
    if (from === to) return;
    const source = this.record(from);
    const carried = [...source.ops].filter((op) => op !== "D");
    source.ops = new Set();
    this.mark(source, "D");
    const dest = this.record(to);
    for (const op of carried) dest.ops.add(op);
    this.mark(dest, "M");
  }

  /** Records newest first. */
  records(): LedgerRecord[] {
    return [...this.files.values()].filter((r) => r.ops.size > 0).sort((a, b) => b.seq - a.seq);
  }
}

export function opsString(ops: ReadonlySet<FileOp>): string {
  return OP_ORDER.filter((op) => ops.has(op)).join("");
}

function parentOf(path: string): string | undefined {
  const i = path.lastIndexOf("/");
  if (i <= 0) return path.length > 1 && path.startsWith("/") ? "/" : undefined;
  return path.slice(0, i);
}
