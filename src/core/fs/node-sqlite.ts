// `node:sqlite` where the runtime has it (Node ≥ 22.13: VS Code's extension
// host; not Node 20), for reading and updating the agents' own SQLite files.

export interface SqliteStatement {
  all(...params: unknown[]): unknown[];
  get(...params: unknown[]): unknown;
  run(...params: unknown[]): unknown;
}

export interface SqliteDatabase {
  prepare(sql: string): SqliteStatement;
  close(): void;
}

export interface SqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean; timeout?: number }) => SqliteDatabase;
}

/** Why a SQLite file cannot be used on this runtime. */
export const NO_SQLITE = "this Node.js has no SQLite (node:sqlite comes with Node 22.13 and later)";

/** `node:sqlite`, or undefined on a runtime without it. */
export function nodeSqlite(): SqliteModule | undefined {
  try {
    return process.getBuiltinModule?.("node:sqlite") as SqliteModule | undefined;
  } catch {
    return undefined;
  }
}
