// Shapes of what pi writes to a session file (format version 3), kept loose on
// purpose: a file on disk may hold anything, so every consumer must check
// before it trusts a field. Names follow pi 0.73.1 so the core reads like pi.

export const CURRENT_SESSION_VERSION = 3;

export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}

export interface ImageContent {
  type: "image";
  data: string;
  mimeType: string;
}

export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
  redacted?: boolean;
}

export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
}

export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  cost?: Record<string, number>;
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
  role: "user";
  content: string | (TextContent | ImageContent)[];
  timestamp: number;
}

export interface AssistantMessage {
  role: "assistant";
  content: (TextContent | ThinkingContent | ToolCall)[];
  api?: string;
  provider: string;
  model: string;
  usage?: Usage;
  stopReason?: StopReason;
  errorMessage?: string;
  timestamp: number;
}

export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  timestamp: number;
}

export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode: number | undefined | null;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
  timestamp: number;
  excludeFromContext?: boolean;
}

export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
  timestamp: number;
}

export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}

export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  tokensBefore: number;
  timestamp: number;
}

/** pi 1.x (pi-ai SystemMessage): the prompt and tool declarations, a full message first, deltas later. */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  /** Prompt sections by name; `null` deletes a section declared earlier. */
  sections?: Record<string, string | null>;
  toolsAdded?: { name: string; [key: string]: unknown }[];
  toolsRemoved?: { name: string }[];
  timestamp: number;
}

/** A message role pi does not know (newer pi, other tools). Kept, shown, never sent. */
export interface UnknownRoleMessage {
  role: string;
  [key: string]: unknown;
}

/** What pi calls AgentMessage: what buildSessionContext returns. */
export type AgentMessage =
  | UserMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage
  | SystemMessage;

/** What convertToLlm returns: what the model sees (system messages only with pi 1.x semantics). */
export type LlmMessage = UserMessage | AssistantMessage | ToolResultMessage | SystemMessage;

export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
  [key: string]: unknown;
}

interface EntryBase {
  id: string;
  parentId: string | null;
  timestamp: string;
}

export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage | UnknownRoleMessage;
}

export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

export interface CompactionEntry extends EntryBase, OmpCompactionFields {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  fromHook?: boolean;
  /** pi 1.x: the model usage of the summary call(s). */
  usage?: Usage;
  /** pi 1.x: the current system message of the branch, replayed first in the rebuilt context. */
  systemMessage?: SystemMessage;
}

/** omp's fields of a compaction entry (omp 18 appendCompaction). */
export interface OmpCompactionFields {
  /** One or two sentences; omp's list title when the session has none. */
  shortSummary?: string;
  /** omp's projection of the context after the compaction (display only). */
  tokensAfter?: number;
  /** soft | handoff | snapcompact | remote | shake; absent = the standard template. */
  method?: string;
  /** true: omp does not carry this entry's file lists into its next compaction. */
  fromExtension?: boolean;
}

/** omp's audit record of a rename (the name itself is the title slot). */
export interface TitleChangeEntry extends EntryBase {
  type: "title_change";
  title: string;
  source: "auto" | "user";
  previousTitle?: string;
  trigger?: string;
}

export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  fromId: string;
  summary: string;
  details?: unknown;
  fromHook?: boolean;
  /** pi 1.x: the model usage of the summary call. */
  usage?: Usage;
  /** omp: the summary was not made by omp's own summarizer. */
  fromExtension?: boolean;
}

export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}

export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: unknown;
}

export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  label: string | undefined;
}

export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}

/** pi 1.x: omits (`replacement: null`) or replaces the content of an earlier entry on this branch. */
export interface ContextEditEntry extends EntryBase {
  type: "context_edit";
  targetId: string;
  replacement: null | { content: string | (TextContent | ImageContent)[] };
}

/** pi 1.x: model usage outside a message (e.g. `kind: "cache_warm"`); no context effect. */
export interface UsageEntry extends EntryBase {
  type: "usage";
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** An entry type this version does not know (e.g. newer pi's `usage`, `context_edit`). */
export interface UnknownEntry extends EntryBase {
  type: string;
  [key: string]: unknown;
}

export type KnownSessionEntry =
  | MessageEntry
  | ThinkingLevelChangeEntry
  | ModelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | CustomEntry
  | CustomMessageEntry
  | LabelEntry
  | SessionInfoEntry;

/** Entry types only pi 1.x writes (pi 0.73 ignores them). */
export type Pi1xSessionEntry = ContextEditEntry | UsageEntry;

export type SessionEntry = KnownSessionEntry | Pi1xSessionEntry;

export const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set([
  "message",
  "thinking_level_change",
  "model_change",
  "compaction",
  "branch_summary",
  "custom",
  "custom_message",
  "label",
  "session_info",
]);

export function isKnownEntryType(type: unknown): boolean {
  return typeof type === "string" && KNOWN_ENTRY_TYPES.has(type);
}
