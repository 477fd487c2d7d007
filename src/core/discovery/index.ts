// Finding session files (pi's and oh-my-pi's) and proposing which to clean up.

export { type CleanupCriteria, type CleanupProposal, formatBytes, proposeCleanup, totalBytes, trashConfirmation } from "./cleanup-proposal.js";
export { defaultAgentDir, findSessionFiles, isSessionFile, jsonlFilesIn, jsonlFilesInFolders, piSessionDirForCwd, piSessionFolders, summarizeSessionFile } from "./discover.js";
export { agentLabel, agentRoot, type AgentName, type AgentRoot, type AgentRootOptions, defaultAgentRoots, rootOfFile, sessionDirForCwd, sessionDirsForCwd } from "./agent-roots.js";
export { ompAgentDir, ompBlobsDir, ompConfigRoot, ompDataDir, ompProfile, ompSessionsRoot, ompStateDir, type OmpDirOptions } from "../agent/omp-18/omp-dirs.js";
export { existingOf, ompRecordedSessionFiles, ompRecordFolders, ompRecords, ompRecordTarget, type OmpRecordFolders } from "./omp-recorded-sessions.js";
export { legacyAbsoluteFolderName, ompFolderName, ompSessionDirForCwd, ompSessionDirsForCwd, type OmpFolderOptions } from "./omp-session-folder.js";
export { ompDisplayName, ompListedFiles, ompListedFilesIn, ompListingFromPrefix, readOmpListing, sanitizeOmpName, type OmpListing } from "./omp-listing.js";
