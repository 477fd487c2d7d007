// Read-only views: Show Context (what the model sees from a leaf, as a
// markdown document) and Show Last Summary (the newest compaction or branch
// summary on the branch, in the summary panel).
import { basename } from "node:path";
import * as vscode from "vscode";
import type { ReadOnlyDocuments } from "../read-only-documents";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { contextDocument } from "../context-document";
import { semanticsFor } from "../../core/agent";
import { piVersionChoice } from "../pi-version-choice";
import { reportError } from "../error-actions";
import type { Services } from "../services";
import { isNotDone, sessionTarget } from "./session-target";

export const SHOW_CONTEXT_COMMAND_ID = "piSessions.showContext";
export const SHOW_SUMMARY_COMMAND_ID = "piSessions.showSummary";
/** Show Context's documents: read-only markdown (never an Untitled document that asks to be saved). */
export const CONTEXT_DOCUMENT_SCHEME = "pi-sessions-context";

export async function showContext(services: Services, documents: ReadOnlyDocuments, raw: unknown): Promise<CommandResult<{ document: vscode.TextDocument }>> {
  const args = commandArgs(raw);
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  try {
    const leafId = args.entryId ?? target.session.index.leafId;
    const content = contextDocument(target.session, leafId, semanticsFor(piVersionChoice(target.session, services.settings()).version));
    const title = services.sessions.factsOf(target.path)?.title ?? basename(target.path, ".jsonl");
    // The tab shows the name: what it is and which session (a file name has no slashes).
    const name = `Context of ${title.replace(/[/\\]/g, "∕").slice(0, 60)}.md`;
    const document = await vscode.workspace.openTextDocument(documents.uriFor(name, "context", content, "by-name"));
    await vscode.window.showTextDocument(document, { preview: true });
    return ok({ document });
  } catch (error) {
    return reportError(error, "Show Context", { log: services.log, sessionPath: target.path });
  }
}

export async function showSummary(services: Services, raw: unknown): Promise<CommandResult<{ entryId: string }>> {
  const args = commandArgs(raw);
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const { session } = target;
  let entryId = args.entryId;
  if (!entryId || !["compaction", "branch_summary"].includes(session.index.get(entryId)?.type ?? "")) {
    const path = session.pathTo(entryId ?? session.index.leafId);
    entryId = [...path].reverse().find((e) => e.type === "compaction" || e.type === "branch_summary")?.id;
  }
  if (!entryId) {
    void vscode.window.showInformationMessage("This branch has no compaction or branch summary yet.");
    return notDone("not-applicable", "No summary on this branch.");
  }
  try {
    await services.presenter.showEntry(session, entryId);
    return ok({ entryId });
  } catch (error) {
    return reportError(error, "Show Last Summary", { log: services.log, sessionPath: target.path });
  }
}
