// Codicons for entry kinds in the Entries view.
import * as vscode from "vscode";
import type { EntryMeta } from "../../core/session/format/entry-meta";

export function entryIcon(meta: EntryMeta, isError: boolean): vscode.ThemeIcon {
  if (meta.type === "message") {
    switch (meta.role) {
      case "user":
        return new vscode.ThemeIcon("account");
      case "assistant":
        return new vscode.ThemeIcon(isError ? "error" : "hubot");
      case "toolResult":
        return isError ? new vscode.ThemeIcon("error", new vscode.ThemeColor("errorForeground")) : new vscode.ThemeIcon("tools");
      case "bashExecution":
        return new vscode.ThemeIcon("terminal");
      case "custom":
        return new vscode.ThemeIcon("comment");
      default:
        return new vscode.ThemeIcon("question");
    }
  }
  switch (meta.type) {
    case "compaction":
      return new vscode.ThemeIcon("fold", new vscode.ThemeColor("charts.purple"));
    case "branch_summary":
      return new vscode.ThemeIcon("git-merge", new vscode.ThemeColor("charts.blue"));
    case "model_change":
      return new vscode.ThemeIcon("symbol-enum");
    case "thinking_level_change":
      return new vscode.ThemeIcon("lightbulb");
    case "label":
      return new vscode.ThemeIcon("tag");
    case "session_info":
      return new vscode.ThemeIcon("info");
    case "custom":
      return new vscode.ThemeIcon("extensions");
    case "custom_message":
      return new vscode.ThemeIcon("comment");
    default:
      return new vscode.ThemeIcon("question");
  }
}
