// Finding session files and proposing which to clean up.

export { type CleanupCriteria, type CleanupProposal, formatBytes, proposeCleanup, totalBytes, trashConfirmation } from "./cleanup-proposal.js";
export { defaultAgentDir, findSessionFiles, isSessionFile, jsonlFilesIn, jsonlFilesInFolders, piSessionDirForCwd, piSessionFolders, summarizeSessionFile } from "./discover.js";
