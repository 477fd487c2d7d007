// Where the leaf goes when pi's /tree moves to an entry (agent-session.js
// navigateTree): a user message or custom_message target is re-edited, so the
// leaf becomes its parent and its text goes back to the editor; any other
// target becomes the leaf itself.

import type { SessionEntry } from "../session/format/types.js";
import { isObject, messageOf } from "../context/context-message.js";

export interface NavigationTarget {
  /** null: before the first entry (the target was a root user message). */
  newLeafId: string | null;
  editorText?: string;
}

export function resolveNavigationTarget(target: SessionEntry): NavigationTarget {
  if (target.type === "message") {
    const message = messageOf(target);
    if (message?.role === "user") return { newLeafId: target.parentId ?? null, editorText: textOf(message.content) };
  } else if (target.type === "custom_message") {
    return { newLeafId: target.parentId ?? null, editorText: textOf(target.content) };
  }
  return { newLeafId: target.id };
}

/** Where pi writes a branch_summary for a new leaf: its child, `fromId` = the new leaf ("root" for none). */
export function branchSummaryPlacement(newLeafId: string | null): { parentId: string | null; fromId: string } {
  return { parentId: newLeafId, fromId: newLeafId ?? "root" };
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((c): c is Record<string, unknown> => isObject(c) && c.type === "text")
    .map((c) => c.text)
    .join("");
}
