// pi's buildSessionContext (session-manager.js): what the model sees on the
// branch ending at a leaf. Same output as pi 0.73.1 for every file pi can read.
// Deliberate differences, only where pi would hang or throw:
// - a parentId cycle stops the walk (pi loops forever);
// - a `message` entry whose `message` is not an object is skipped (pi throws
//   reading `.role`).

import type { CompactionEntry, SessionEntry } from "../session/format/types.js";
import { messageOf, type ContextMessage } from "./context-message.js";
import type { ContextModel } from "./context-model.js";
import { contextSettings } from "./context-settings.js";

export type { ContextModel } from "./context-model.js";
import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage } from "./message-factories.js";
import { indexEntriesById, walkToRoot, type EntriesById } from "./path-walk.js";

export interface SessionContext {
  messages: ContextMessage[];
  thinkingLevel: string;
  model: ContextModel | null;
}

const EMPTY_CONTEXT = (): SessionContext => ({ messages: [], thinkingLevel: "off", model: null });

/**
 * @param leafId `null`: before the first entry (no messages); `undefined` or an
 *   unknown id: the last entry of `entries`, as pi does.
 */
export function buildSessionContext(
  entries: readonly SessionEntry[],
  leafId?: string | null,
  byId?: EntriesById,
): SessionContext {
  const index = byId ?? indexEntriesById(entries);
  if (leafId === null) return EMPTY_CONTEXT();
  let leaf: SessionEntry | undefined = leafId ? index.get(leafId) : undefined;
  if (!leaf) leaf = entries[entries.length - 1];
  if (!leaf) return EMPTY_CONTEXT();
  return buildContextFromPath(walkToRoot(leaf, index).path);
}

/**
 * The message an entry on the path adds to the context (before any compaction
 * cuts it off): message entries, custom messages, branch summaries with text.
 */
export function contextMessageOf(entry: SessionEntry): ContextMessage | undefined {
  if (entry.type === "message") return messageOf(entry);
  if (entry.type === "custom_message") return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp);
  if (entry.type === "branch_summary" && entry.summary) return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
  return undefined;
}

/** The same result from an already resolved root→leaf path. */
export function buildContextFromPath(path: readonly SessionEntry[]): SessionContext {
  const { thinkingLevel, model } = contextSettings(path);
  let compaction: CompactionEntry | null = null;
  for (const entry of path) if (entry.type === "compaction") compaction = entry;

  const messages: ContextMessage[] = [];
  const append = (entry: SessionEntry): void => {
    const message = contextMessageOf(entry);
    if (message) messages.push(message);
  };

  if (!compaction) {
    for (const entry of path) append(entry);
    return { messages, thinkingLevel, model };
  }

  const last = compaction;
  messages.push(createCompactionSummaryMessage(last.summary, last.tokensBefore, last.timestamp));
  // pi looks the compaction up by id (first match), not by position.
  const compactionIndex = path.findIndex((e) => e.type === "compaction" && e.id === last.id);
  let foundFirstKept = false;
  for (let i = 0; i < compactionIndex; i++) {
    const entry = path[i]!;
    if (entry.id === last.firstKeptEntryId) foundFirstKept = true;
    if (foundFirstKept) append(entry);
  }
  for (let i = compactionIndex + 1; i < path.length; i++) append(path[i]!);
  return { messages, thinkingLevel, model };
}
