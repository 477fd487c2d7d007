// Which codicon (and colour) an entry kind gets in the Entries view: every kind
// pi and pi 1.5 write has its own; "question" is left for kinds no pi writes.
// No vscode here (entry-icons.ts makes the ThemeIcon), so it is unit-tested.
import type { EntryKind } from "../../core/session/format/entry-meta";

export interface IconId {
  id: string;
  color?: string;
}

const ROLES: Record<string, IconId> = {
  user: { id: "account" },
  assistant: { id: "hubot" },
  toolResult: { id: "tools" },
  bashExecution: { id: "terminal" },
  custom: { id: "comment" },
  // pi 1.5's system prompt (and its later deltas).
  system: { id: "book" },
  branchSummary: { id: "git-merge", color: "charts.blue" },
  compactionSummary: { id: "archive", color: "charts.purple" },
};

const TYPES: Record<string, IconId> = {
  compaction: { id: "archive", color: "charts.purple" },
  branch_summary: { id: "git-merge", color: "charts.blue" },
  model_change: { id: "symbol-enum" },
  thinking_level_change: { id: "lightbulb" },
  label: { id: "tag" },
  session_info: { id: "info" },
  custom: { id: "extensions" },
  custom_message: { id: "comment" },
  // pi 1.5: an earlier message omitted from (or replaced in) the model's context.
  context_edit: { id: "edit" },
  // pi 1.5: tokens spent outside the conversation (a title, a summary).
  usage: { id: "dashboard" },
};

export const UNKNOWN_ICON: IconId = { id: "question" };

export function entryIconId(meta: EntryKind, isError: boolean): IconId {
  if (meta.type === "message") {
    if (isError && meta.role === "assistant") return { id: "error" };
    if (isError && meta.role === "toolResult") return { id: "error", color: "errorForeground" };
    return ROLES[meta.role ?? ""] ?? UNKNOWN_ICON;
  }
  return TYPES[meta.type] ?? UNKNOWN_ICON;
}
