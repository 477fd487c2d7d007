// File-system helpers (atomic writes, node:sqlite where the runtime has it).

export { writeFileAtomic } from "./atomic-write.js";
export { NO_SQLITE, nodeSqlite, type SqliteDatabase, type SqliteModule } from "./node-sqlite.js";
