// omp's welcome screen lists recent sessions by the title omp caches in its
// history.db (`session_titles`, keyed by session id), which omp's
// setSessionName updates on every rename; its /resume reads the title slot.
// After our rename the cache is updated the same way (omp's own upsert), with
// node:sqlite, when the file exists and holds the table — neither is ever
// created — waiting for omp's lock as omp does. Where that cannot be done the
// rename says what the welcome screen may show instead.

import { existsSync } from "node:fs";
import { NO_SQLITE, nodeSqlite, type SqliteDatabase, type SqliteModule } from "../fs/index.js";

export type TitleIndexUpdate = { recorded: true } | { recorded: false; reason: string };

/** omp's session-index.ts upsertTitle. */
const UPSERT_TITLE = `INSERT INTO session_titles (session_id, title, updated_at)
VALUES (?, ?, CAST(strftime('%s','now') AS INTEGER))
ON CONFLICT(session_id) DO UPDATE SET
	title = excluded.title,
	updated_at = excluded.updated_at`;

export function recordOmpSessionTitle(file: string, sessionId: string, title: string, sqlite: SqliteModule | undefined = nodeSqlite()): TitleIndexUpdate {
  if (!existsSync(file)) return { recorded: false, reason: `${file} does not exist` };
  if (!sqlite) return { recorded: false, reason: NO_SQLITE };
  let db: SqliteDatabase | undefined;
  try {
    db = new sqlite.DatabaseSync(file, { timeout: 5000 });
    const table = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'session_titles'").get();
    if (!table) return { recorded: false, reason: `${file} has no session_titles table` };
    db.prepare(UPSERT_TITLE).run(sessionId, title);
    return { recorded: true };
  } catch (error) {
    return { recorded: false, reason: error instanceof Error ? error.message : String(error) };
  } finally {
    db?.close();
  }
}
