// The version of the files-touched analysis (bash parsing, command handlers,
// tool rules). Caches of its results on disk — per-command analyses and
// per-session touch manifests — are dropped when it differs: bump it with any
// change that can change an action.
export const FILES_TOUCHED_ANALYSIS_VERSION = 1;
