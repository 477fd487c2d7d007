// omp 18.3.4's message constructors and predicates (agent-core
// compaction/messages.ts, pi-tui chat/messages.ts and transcript-entry.ts,
// coding-agent session/messages.ts), as buildSessionContext and convertToLlm use
// them. Messages are plain JSON objects here (`OmpMessage`).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OmpMessage = Record<string, any>;

export const INTERRUPTED_THINKING_MESSAGE_TYPE = "interrupted-thinking";
export const PREWALK_PLAN_MESSAGE_TYPE = "prewalk-plan";
export const VIBE_MODE_CONTEXT_MESSAGE_TYPE = "vibe-mode-context";
export const SKILL_PROMPT_MESSAGE_TYPE = "skill-prompt";
export const COLLAB_PROMPT_MESSAGE_TYPE = "collab-prompt";
const DEFAULT_CUSTOM_MESSAGE_TYPE = "custom-message";
const USER_INTERRUPT_LABEL = "Interrupted by user";
const USER_INTERRUPT_FLAG = 67108864;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

const timeOf = (timestamp: unknown): number => new Date(timestamp as string).getTime();

export function createBranchSummaryMessage(summary: string, fromId: string, timestamp: string): OmpMessage {
  return { role: "branchSummary", summary, fromId, timestamp: timeOf(timestamp) };
}

export interface CompactionSummaryOptions {
  shortSummary?: string;
  providerPayload?: unknown;
  images?: OmpMessage[];
  blocks?: OmpMessage[];
  warning?: string;
  method?: string;
  tokensAfter?: number;
  historyRewriteAt?: number;
}

export function createCompactionSummaryMessage(summary: string, tokensBefore: number, timestamp: string, options: CompactionSummaryOptions = {}): OmpMessage {
  const { shortSummary, providerPayload, images, blocks, warning, method, tokensAfter, historyRewriteAt } = options;
  const imageBlocks = blocks?.filter((b) => b.type === "image") ?? (images && images.length > 0 ? images : undefined);
  return {
    role: "compactionSummary",
    summary,
    shortSummary,
    tokensBefore,
    tokensAfter,
    method,
    providerPayload,
    blocks: blocks && blocks.length > 0 ? blocks : undefined,
    images: imageBlocks && imageBlocks.length > 0 ? imageBlocks : undefined,
    warning,
    historyRewriteAt,
    timestamp: timeOf(timestamp),
  };
}

export function createCustomMessage(customType: string, content: unknown, display: boolean, details: unknown, timestamp: string, attribution?: string): OmpMessage {
  return { role: "custom", customType, content, display, details, attribution, timestamp: timeOf(timestamp) };
}

export function isCustomMessageContent(content: unknown): boolean {
  return typeof content === "string" || Array.isArray(content);
}

/** pi-tui customMessageEntryMessage: a custom_message entry's message (normalised), or undefined. */
export function customMessageEntryMessage(entry: OmpMessage): OmpMessage | undefined {
  if (!isCustomMessageContent(entry.content)) return undefined;
  const customType = typeof entry.customType === "string" && entry.customType.length > 0 ? entry.customType : DEFAULT_CUSTOM_MESSAGE_TYPE;
  const display = typeof entry.display === "boolean" ? entry.display : false;
  const attribution = entry.attribution === undefined ? undefined : entry.attribution === "user" ? "user" : "agent";
  return createCustomMessage(customType, entry.content, display, entry.details, entry.timestamp, attribution);
}

export function isUserInvokedSkillPrompt(message: OmpMessage): boolean {
  return message.customType === SKILL_PROMPT_MESSAGE_TYPE && message.attribution === "user";
}

export function isUserTurnInitiator(message: OmpMessage): boolean {
  return isUserInvokedSkillPrompt(message) || (message.customType === COLLAB_PROMPT_MESSAGE_TYPE && message.attribution === "user");
}

/** pi-tui isUserRequestEntry. */
export function isUserRequestEntry(entry: OmpMessage): boolean {
  if (entry.type === "message" && "message" in entry) {
    if (entry.message?.role === "user") return true;
    return entry.message?.role === "custom" && isUserTurnInitiator(entry.message);
  }
  if (entry.type === "custom_message" && "content" in entry) {
    const message = customMessageEntryMessage(entry);
    return message !== undefined && isUserTurnInitiator(message);
  }
  return false;
}

export function isUserInterruptAbort(message: OmpMessage): boolean {
  return ((message.errorId ?? 0) & USER_INTERRUPT_FLAG) !== 0 || message.errorMessage === USER_INTERRUPT_LABEL;
}

/** An error turn with nothing in it (coding-agent isEmptyErrorTurn). */
export function isEmptyErrorTurn(message: OmpMessage): boolean {
  if (message.stopReason !== "error") return false;
  return !(message.content as OmpMessage[]).some((block) => {
    switch (block.type) {
      case "text":
        return block.text.trim().length > 0;
      case "thinking":
        return block.thinking.trim().length > 0 || (block.thinkingSignature?.trim().length ?? 0) > 0;
      case "redactedThinking":
        return block.data.trim().length > 0;
      case "toolCall":
        return true;
      case "fallback":
        return false;
      default:
        return true;
    }
  });
}

/** demoteInterruptedThinking's stripped content: a trailing run of unsigned, non-empty thinking removed. */
export function stripDemotedThinking(message: OmpMessage): OmpMessage {
  const content = message.content as OmpMessage[];
  let scanEnd = content.length;
  while (scanEnd > 0) {
    const block = content[scanEnd - 1]!;
    if (block.type !== "text" || block.text.trim().length > 0) break;
    scanEnd--;
  }
  let runStart = scanEnd;
  while (runStart > 0) {
    const block = content[runStart - 1]!;
    if (block.type !== "thinking" || block.thinking.trim().length === 0 || block.thinkingSignature) break;
    runStart--;
  }
  if (scanEnd - runStart === 0) return message;
  return { ...message, content: content.slice(0, runStart) };
}
