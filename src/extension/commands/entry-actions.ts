// Actions on entries and the views: Copy Entry JSON, Open Raw Line, Go to
// Leaf, the Entries filter, and opening a session's entries.
import * as vscode from "vscode";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { CONTEXT_KEYS } from "../active-session";
import type { Services } from "../services";
import { ENTRY_FILTERS, type EntryFilter } from "../views/entries-model";
import { isNotDone, sessionTarget } from "./session-target";

export async function copyEntryJson(services: Services, raw: unknown): Promise<CommandResult<{ text: string }>> {
  const args = commandArgs(raw);
  if (!args.entryId) return notDone("not-applicable", "No entry given.");
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const line = target.session.rawLine(args.entryId);
  let text = line;
  try {
    text = JSON.stringify(JSON.parse(line), null, 2);
  } catch {
    // Not JSON pi can read: copy the line as it is.
  }
  await vscode.env.clipboard.writeText(text);
  return ok({ text });
}

export async function openRawLine(services: Services, raw: unknown): Promise<CommandResult<{ line: number }>> {
  const args = commandArgs(raw);
  if (!args.entryId) return notDone("not-applicable", "No entry given.");
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const meta = target.session.location(args.entryId);
  if (!meta) return notDone("not-applicable", `No entry ${args.entryId}.`);
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(target.path));
  const line = document.lineAt(Math.min(meta.line - 1, document.lineCount - 1));
  await vscode.window.showTextDocument(document, { selection: line.range, preview: true });
  return ok({ line: meta.line });
}

/** Shows a session's entries (and makes it the active session). */
export async function openSession(services: Services, raw: unknown): Promise<CommandResult<{ sessionPath: string }>> {
  const args = commandArgs(raw);
  const path = args.sessionPath ?? services.active.path;
  if (!path) return notDone("no-session", "No session given.");
  services.active.set(path);
  services.entriesTree.show(path);
  return ok({ sessionPath: path });
}

export async function goToLeaf(services: Services, raw: unknown): Promise<CommandResult<{ entryId: string }>> {
  const args = commandArgs(raw);
  const path = args.sessionPath ?? services.entriesTree.path ?? services.active.path;
  if (!path) return notDone("no-session", "No session shown.");
  if (services.entriesTree.path !== path) services.entriesTree.show(path);
  const model = await services.entriesTree.current();
  const leafId = model?.leafId;
  if (!model || !leafId) return notDone("not-applicable", "The session has no entries.");
  await revealInEntriesView(services, leafId, true);
  return ok({ entryId: leafId });
}

/** Reveals an entry in the Entries view (switching the view to its session). */
export async function revealEntry(services: Services, sessionPath: string, entryId: string, focus = true): Promise<void> {
  services.active.set(sessionPath);
  services.entriesTree.show(sessionPath);
  await revealInEntriesView(services, entryId, focus);
}

/**
 * Lands on an entry where it can be read: the reader opened (or brought
 * forward) at the entry, and the entry selected in the Entries view without
 * taking the focus from the reader. Search results, "touched this file" rows
 * and a change without a diff come here.
 */
export async function openEntry(services: Services, sessionPath: string, entryId: string): Promise<void> {
  const opened = (await vscode.commands.executeCommand("piSessions.openReader", { sessionPath, entryId, preview: true })) as { ok?: boolean } | undefined;
  await revealEntry(services, sessionPath, entryId, opened?.ok !== true);
}

/** VS Code's tree errors that mean "its refresh has not settled yet", not "no such node". */
const UNSETTLED_TREE = /not found|cannot resolve tree item/i;

/** Pages an entry of the shown session in, then selects it in the Entries view. */
async function revealInEntriesView(services: Services, entryId: string, focus: boolean): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const model = await services.entriesTree.current();
    if (!model || !model.session.index.get(entryId)) return;
    try {
      await services.entriesTree.pageIn(model.entryNode(entryId));
      await services.entriesView.reveal(model.entryNode(entryId), { select: true, focus, expand: false });
      return;
    } catch (error) {
      // VS Code applies a tree refresh asynchronously: right after the view switched sessions or
      // refreshed nodes, a reveal can look for a node (or a parent) it has not fetched again yet.
      // Try again once it settled, from the model shown then.
      if (attempt >= 4 || !UNSETTLED_TREE.test(error instanceof Error ? error.message : String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * (attempt + 1)));
    }
  }
}

export async function filterEntries(services: Services, raw: unknown): Promise<CommandResult<{ filter: EntryFilter }>> {
  const given = typeof raw === "string" ? raw : (raw as { filter?: unknown } | undefined)?.filter;
  let filter = ENTRY_FILTERS.find((f) => f.id === given)?.id;
  if (!filter) {
    const items = ENTRY_FILTERS.map((f) => ({ label: f.label, detail: f.detail, id: f.id, picked: f.id === services.entriesTree.filter }));
    filter = (await vscode.window.showQuickPick(items, { title: "Pi Sessions: Filter Entries" }))?.id;
  }
  if (!filter) return notDone("cancelled", "No filter chosen.");
  services.entriesTree.setFilter(filter);
  void vscode.commands.executeCommand("setContext", CONTEXT_KEYS.entriesFilter, filter);
  return ok({ filter });
}
