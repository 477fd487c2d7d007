// Which codicon (and colour) an entry kind gets in the Entries view: every kind
// pi, pi 1.5 and omp write has its own; "question" is left for kinds no pi writes.
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
  // omp: custom messages sent as developer, Python cells, @file mentions, hook messages.
  developer: { id: "comment" },
  pythonExecution: { id: "terminal" },
  fileMention: { id: "file" },
  hookMessage: { id: "extensions" },
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
  // omp: /clear (everything above is out of context), titles, model spend, tiers, injections, pins, start, mode.
  reset_boundary: { id: "clear-all", color: "charts.orange" },
  title_change: { id: "symbol-string" },
  model_usage: { id: "dashboard" },
  service_tier_change: { id: "settings" },
  ttsr_injection: { id: "inbox" },
  credential_pin: { id: "key" },
  session_init: { id: "rocket" },
  mode_change: { id: "settings-gear" },
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
