// pi 1.5.2's session projection (session-manager.js sessionEntryToContextMessages,
// buildContextEntries, projectContextEntry, buildSessionProjection): the context
// of a branch with context edits applied and the compaction's system checkpoint
// first. Where pi would throw on junk (a `message` that is not an object, an edit
// without a replacement object), the entry is skipped / the edit ignored.

import type { SessionContext } from "../../context/build-session-context.js";
import { isObject, messageOf, type ContextMessage } from "../../context/context-message.js";
import {
  createBranchSummaryMessage,
  createCompactionSummaryMessage,
  createCustomMessage,
} from "../../context/message-factories.js";
import type { CompactionEntry, ContextEditEntry, SessionEntry } from "../../session/format/types.js";
import { contextSettings } from "../../context/context-settings.js";

/** One entry of the projected context and the messages it contributes (none when omitted). */
export interface ProjectedEntry {
  sourceEntry: SessionEntry;
  messages: ContextMessage[];
}

export interface SessionProjection extends SessionContext {
  entries: ProjectedEntry[];
}

/** The messages an entry contributes to the model context, before context edits. */
export function sessionEntryToContextMessages(entry: SessionEntry): ContextMessage[] {
  if (entry.type === "message") {
    const message = messageOf(entry);
    if (!message) return [];
    if (message.role === "system" && message.content == null) return [{ ...message, content: "" } as ContextMessage];
    if ((message.role === "user" || message.role === "assistant" || message.role === "toolResult") && message.content == null) {
      return [{ ...message, content: [] } as ContextMessage];
    }
    return [message];
  }
  if (entry.type === "custom_message") {
    return [createCustomMessage(entry.customType, entry.content ?? [], entry.display, entry.details, entry.timestamp)];
  }
  if (entry.type === "branch_summary" && entry.summary) {
    return [createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp)];
  }
  if (entry.type === "compaction") {
    const summary = createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp);
    return entry.systemMessage ? [entry.systemMessage as ContextMessage, summary] : [summary];
  }
  return [];
}

function isSystemMessageEntry(entry: SessionEntry): boolean {
  return entry.type === "message" && messageOf(entry)?.role === "system";
}

/**
 * The latest compaction itself, then the kept entries from its firstKeptEntryId
 * (system messages left out: the checkpoint replaces them), then everything
 * after it. Without a compaction: the path.
 */
export function buildContextEntries(path: readonly SessionEntry[]): SessionEntry[] {
  let compaction: CompactionEntry | null = null;
  for (const entry of path) if (entry.type === "compaction") compaction = entry;
  if (!compaction) return [...path];
  const last = compaction;
  // pi looks the compaction up by id (first match), not by position.
  const compactionIdx = path.findIndex((entry) => entry.id === last.id);
  if (compactionIdx < 0) return [...path];
  const contextEntries: SessionEntry[] = [last];
  let foundFirstKept = false;
  for (let i = 0; i < compactionIdx; i++) {
    const entry = path[i]!;
    if (entry.id === last.firstKeptEntryId) foundFirstKept = true;
    if (foundFirstKept && !isSystemMessageEntry(entry)) contextEntries.push(entry);
  }
  contextEntries.push(...path.slice(compactionIdx + 1));
  return contextEntries;
}

function hasReplacementObject(edit: ContextEditEntry): boolean {
  return edit.replacement === null || isObject(edit.replacement);
}

/** One entry's messages with its latest context edit applied: omitted, or its content replaced. */
export function projectContextEntry(entry: SessionEntry, edit: ContextEditEntry | undefined): ContextMessage[] {
  const messages = sessionEntryToContextMessages(entry);
  if (!edit || !hasReplacementObject(edit)) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((message) => {
    const role = message.role;
    if (role !== "user" && role !== "assistant" && role !== "toolResult" && role !== "custom") return message;
    const content =
      (role === "assistant" || role === "toolResult") && typeof replacement.content === "string"
        ? [{ type: "text", text: replacement.content }]
        : replacement.content;
    return { ...message, content } as ContextMessage;
  });
}

/** pi 1.5's buildSessionProjection on a root→leaf path. */
export function buildSessionProjection(path: readonly SessionEntry[]): SessionProjection {
  const { thinkingLevel, model } = contextSettings(path);
  const contextEntries = buildContextEntries(path);
  const edits = new Map<string, ContextEditEntry>();
  for (const entry of contextEntries) {
    // Latest edit wins; only edits inside the projected context count.
    if (entry.type === "context_edit") edits.set(entry.targetId, entry);
  }
  const entries = contextEntries.map((sourceEntry, index) => ({
    sourceEntry,
    // An older compaction inside the kept range contributes nothing; only the newest (index 0) does.
    messages: sourceEntry.type === "compaction" && index > 0 ? [] : projectContextEntry(sourceEntry, edits.get(sourceEntry.id)),
  }));
  return { entries, messages: entries.flatMap((e) => e.messages), thinkingLevel, model };
}
