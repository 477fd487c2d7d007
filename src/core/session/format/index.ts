// What a session file is: entry shapes, ids, pi's key order, v1/v2 → v3 migration, which agent and version's dialect, omp's title slot.

export { AGENT_NAMES, type AgentName, type AgentVersion, formatAgentVersion, isAgentName, OMP_18, OMP_RELEASE, type OmpVersion, PI_0_73, PI_1_5, piAgent, sameAgentVersion } from "./agent-version.js";
export { isOmpOnlyEntryType, OMP_CORE_CUSTOM_TYPES, OMP_MESSAGE_ROLES, OMP_ONLY_ENTRY_TYPES } from "./omp-entry-types.js";
export { TITLE_SLOT_BYTES, TITLE_SLOT_ENTRY_TYPE, type TitleSlot, titleSlotOf } from "./title-slot.js";

export { type EntryKind, type EntryLocation, type EntryMeta, type LineLocation, type Spend } from "./entry-meta.js";
export { type EntryRecord, metaOfRecord, type RareFields, recordOf } from "./entry-record.js";
export { deterministicEntryId, migrateParsedLines, needsMigration, versionOfHeader } from "./migrate.js";
export { formatPiVersion, isPiVersion, parsePiVersion, PI_RELEASE, PI_VERSIONS, type PiVersion } from "./pi-version.js";
export { asWritten, type BranchSummaryDraft, buildEntry, type CompactionDraft, type EntryDraft, serializeEntry, type WrittenEntry } from "./serialize-entry.js";
export { newSessionId, sessionFileName } from "./session-id.js";
export { type AgentMessage, type AssistantMessage, type BashExecutionMessage, type BranchSummaryEntry, type BranchSummaryMessage, type CompactionEntry, type CompactionSummaryMessage, type ContextEditEntry, CURRENT_SESSION_VERSION, type CustomEntry, type CustomMessage, type CustomMessageEntry, type ImageContent, isKnownEntryType, KNOWN_ENTRY_TYPES, type LabelEntry, type LlmMessage, type MessageEntry, type ModelChangeEntry, type SessionEntry, type SessionHeader, type SessionInfoEntry, type SystemMessage, type TextContent, type ToolResultMessage, type UnknownRoleMessage, type Usage } from "./types.js";
