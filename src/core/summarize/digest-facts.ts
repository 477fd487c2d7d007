// What the digest reports, read off the messages without interpreting them:
// the user's requests verbatim, tool calls counted per tool name, shell
// commands and their failures, the first line of every error (deduplicated,
// first seen first), branch summaries, and the last assistant text.

import type { ContextMessage } from "../context/context-message.js";
import { isObject } from "../context/context-message.js";

export interface DigestFacts {
  /** Each user message's text, trimmed, oldest first (empty ones left out). */
  userRequests: string[];
  toolCalls: number;
  /** Tool calls per tool name. */
  toolCounts: Map<string, number>;
  /** bash tool calls plus commands the user ran (`!cmd`, bashExecution). */
  bashCommands: number;
  failedBashCommands: number;
  failedToolResults: number;
  /** "<source>: <first line>", distinct, in order of first appearance. */
  errors: string[];
  branchSummaries: string[];
  /** The last assistant message with text, trimmed. */
  lastAssistantText: string | undefined;
}

type Json = Record<string, unknown>;

/** The text blocks of a content value (string or block array), joined by newlines. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((b): b is Json => isObject(b) && b.type === "text" && typeof b.text === "string")
    .map((b) => b.text as string)
    .join("\n");
}

const ERROR_WORDS = /\b(error|errors|fail|failed|failure|fatal|exception|denied|not found|no such|cannot|can't|unable|invalid|panic|traceback)\b|✗|✖/i;

function firstLineOf(text: string): string | undefined {
  const line = text.split("\n").find((l) => l.trim() !== "");
  if (line === undefined) return undefined;
  const trimmed = line.trim();
  return trimmed.length > 300 ? `${trimmed.slice(0, 300)}…` : trimmed;
}

class FactCollector {
  readonly facts: DigestFacts = {
    userRequests: [],
    toolCalls: 0,
    toolCounts: new Map(),
    bashCommands: 0,
    failedBashCommands: 0,
    failedToolResults: 0,
    errors: [],
    branchSummaries: [],
    lastAssistantText: undefined,
  };
  private readonly seenErrors = new Set<string>();
  /** Ids of bash tool calls, to count their failed results as failed commands. */
  private readonly bashCallIds = new Set<string>();

  /** The first line that reads like an error (else the first line): test runners open with banners. */
  error(source: string, text: string): void {
    const lines = text.split("\n");
    const line = firstLineOf(lines.find((l) => ERROR_WORDS.test(l)) ?? text);
    if (line === undefined) return;
    const entry = `${source}: ${line}`;
    if (this.seenErrors.has(entry)) return;
    this.seenErrors.add(entry);
    this.facts.errors.push(entry);
  }

  add(message: Json): void {
    switch (message.role) {
      case "user": {
        const text = contentText(message.content).trim();
        if (text !== "") this.facts.userRequests.push(text);
        return;
      }
      case "assistant":
        return this.assistant(message);
      case "toolResult": {
        if (message.isError !== true) return;
        const name = typeof message.toolName === "string" ? message.toolName : "tool";
        this.facts.failedToolResults++;
        if (typeof message.toolCallId === "string" && this.bashCallIds.has(message.toolCallId)) this.facts.failedBashCommands++;
        this.error(name, contentText(message.content));
        return;
      }
      case "bashExecution": {
        this.facts.bashCommands++;
        const failed = message.cancelled === true || (typeof message.exitCode === "number" && message.exitCode !== 0);
        if (failed) {
          this.facts.failedBashCommands++;
          const output = typeof message.output === "string" ? message.output : "";
          const command = typeof message.command === "string" ? message.command : "";
          this.error(`$ ${firstLineOf(command) ?? ""}`, output || (message.cancelled === true ? "cancelled" : `exit code ${String(message.exitCode)}`));
        }
        return;
      }
      case "branchSummary":
        if (typeof message.summary === "string" && message.summary.trim() !== "") this.facts.branchSummaries.push(message.summary.trim());
        return;
      default:
        return;
    }
  }

  private assistant(message: Json): void {
    const content = Array.isArray(message.content) ? (message.content as unknown[]) : [];
    for (const block of content) {
      if (!isObject(block) || block.type !== "toolCall") continue;
      const name = typeof block.name === "string" && block.name !== "" ? block.name : "(unnamed)";
      this.facts.toolCalls++;
      this.facts.toolCounts.set(name, (this.facts.toolCounts.get(name) ?? 0) + 1);
      if (name === "bash") {
        this.facts.bashCommands++;
        if (typeof block.id === "string") this.bashCallIds.add(block.id);
      }
    }
    if (message.stopReason === "error" && typeof message.errorMessage === "string") this.error("model", message.errorMessage);
    const text = contentText(content).trim();
    if (text !== "") this.facts.lastAssistantText = text;
  }
}

export function collectDigestFacts(messages: readonly ContextMessage[]): DigestFacts {
  const collector = new FactCollector();
  for (const message of messages) if (isObject(message)) collector.add(message as Json);
  return collector.facts;
}
