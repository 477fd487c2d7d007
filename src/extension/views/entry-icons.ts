// Codicons for entry kinds in the Entries view (which one: entry-icon-ids.ts).
import * as vscode from "vscode";
import type { EntryMeta } from "../../core/session/format/entry-meta";
import { entryIconId } from "./entry-icon-ids";

export function entryIcon(meta: EntryMeta, isError: boolean): vscode.ThemeIcon {
  const icon = entryIconId(meta, isError);
  return icon.color ? new vscode.ThemeIcon(icon.id, new vscode.ThemeColor(icon.color)) : new vscode.ThemeIcon(icon.id);
}
