// The only writes to a session file: safe appends and the explicit migration.

export { ancestorCycle } from "./ancestry.js";
export { appendEntries, checkParentChain, checkWritable, commitAppend, isWriteRefusedError, planAppend, type PlannedAppend, SessionChangedError, WriteRefusedError } from "./append.js";
export { type MigrateFileResult, migrateSessionFile } from "./migrate-file.js";
export { type AppendDialect, commitOmpRename } from "./append.js";
export { ompLockPath, OMP_LOCK_WAIT_MS, withOmpPublishLock } from "./omp-publish-lock.js";
