// Move to Trash (one or many sessions, multi-select in the Sessions view) and
// Clean Up… (sessions proposed by emptiness, age and size, with the total disk
// size shown before anything moves). Never a permanent delete: VS Code's trash
// (workspace.fs.delete with useTrash), else, on Linux, the freedesktop.org
// home trash (a remote or code-server file system has no trash of its own);
// when neither works, nothing is deleted and the user is told why.
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import { lastActivityMs } from "../../core/discovery/last-activity";
import { formatBytes, proposeCleanup, totalBytes, trashConfirmation, type CleanupCriteria, type CleanupProposal } from "../../core/discovery/cleanup-proposal";
import { moveToFreedesktopTrash, TrashUnavailableError } from "../../core/trash/freedesktop-trash";
import { notDone, ok, type CommandResult } from "../command-result";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";
import { isSessionNode } from "../views/sessions-view";
import { pickSessionPath } from "./session-target";
import { counted } from "../../core/text/counted";

export const MOVE_TO_TRASH_COMMAND_ID = "piSessions.moveToTrash";
export const CLEAN_UP_COMMAND_ID = "piSessions.cleanUp";

type SizedFile = { path: string; size: number };

export interface TrashOutcome {
  moved: { path: string; via: "vscode" | "freedesktop"; to?: string }[];
  totalBytes: number;
}

function statOrUndefined(path: string): { size: number; mtimeMs: number } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

async function moveOne(path: string): Promise<{ via: "vscode" | "freedesktop"; to?: string }> {
  let vscodeError: unknown;
  try {
    await vscode.workspace.fs.delete(vscode.Uri.file(path), { useTrash: true, recursive: false });
    return { via: "vscode" };
  } catch (error) {
    vscodeError = error;
  }
  if (!existsSync(path)) return { via: "vscode" };
  const reason = vscodeError instanceof Error ? vscodeError.message : String(vscodeError);
  if (process.platform !== "linux") throw new TrashUnavailableError(`the trash is not available here (${reason})`);
  try {
    return { via: "freedesktop", to: moveToFreedesktopTrash(path) };
  } catch (error) {
    throw new TrashUnavailableError(`the trash is not available here (${reason}; ${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Asks (unless `confirmed`), then moves each file to the trash; stops at the first that cannot be trashed. */
async function trashFiles(services: Services, files: SizedFile[], confirmed: boolean): Promise<CommandResult<TrashOutcome>> {
  if (files.length === 0) return notDone("not-applicable", "No sessions to move.");
  if (!confirmed) {
    const { message, detail } = trashConfirmation(files);
    const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, "Move to Trash");
    if (answer !== "Move to Trash") return notDone("cancelled", "Nothing was moved.");
  }
  const moved: TrashOutcome["moved"] = [];
  let failure: string | undefined;
  for (const file of files) {
    try {
      moved.push({ path: file.path, ...(await moveOne(file.path)) });
      services.log.info(`moved to the trash: ${file.path}`);
    } catch (error) {
      failure = `${basename(file.path)}: ${error instanceof Error ? error.message : String(error)}. It was not deleted.`;
      services.log.warn(`Move to Trash: ${failure}`);
      break;
    }
  }
  for (const { path } of moved) services.store.forget(path);
  if (moved.length > 0) await services.sessions.rediscover();
  const size = totalBytes(files.filter((f) => moved.some((m) => m.path === f.path)));
  if (failure) {
    void vscode.window.showErrorMessage(`Move to Trash: ${moved.length > 0 ? `${moved.length} moved (${formatBytes(size)}); then ` : ""}${failure}`);
    if (moved.length === 0) return notDone("error", failure);
  } else {
    void vscode.window.showInformationMessage(`Moved ${counted(moved.length, "session")} (${formatBytes(size)}) to the trash.`);
  }
  return ok({ moved, totalBytes: size });
}

function record(raw: unknown): Record<string, unknown> {
  return typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
}

/** Session rows (the clicked one and the selection), `{sessionPaths}`, `{sessionPath}`, else a pick (never silently the active session). */
async function pathsFrom(services: Services, raw: unknown, selected: unknown): Promise<string[]> {
  if (Array.isArray(selected) && selected.some(isSessionNode)) return selected.filter(isSessionNode).map((n) => n.path);
  if (isSessionNode(raw)) return [raw.path];
  const given = record(raw);
  if (Array.isArray(given.sessionPaths)) return given.sessionPaths.filter((p): p is string => typeof p === "string");
  if (typeof given.sessionPath === "string") return [given.sessionPath];
  const picked = await pickSessionPath(services, "Which session should move to the trash?");
  return picked ? [picked] : [];
}

export async function moveToTrash(services: Services, raw: unknown, selected?: unknown): Promise<CommandResult<TrashOutcome>> {
  const refused = refuseUntrusted("Move to Trash", services.log);
  if (refused) return refused;
  const paths = [...new Set(await pathsFrom(services, raw, selected))];
  return trashFiles(services, paths.map((path) => ({ path, size: sizeOf(path) })), record(raw).confirmed === true);
}

interface CriteriaItem extends vscode.QuickPickItem {
  key: "empty" | "old" | "large";
}

async function askCriteria(): Promise<Omit<CleanupCriteria, "now"> | undefined> {
  const items: CriteriaItem[] = [
    { key: "empty", label: "Empty sessions", detail: "no user or assistant message (pi 1.5 would not have kept the file)", picked: true },
    { key: "old", label: "Not used for 90 days", detail: "no activity in the last 90 days", picked: true },
    { key: "large", label: "Larger than 50 MB", picked: false },
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: "Pi Sessions: Clean Up", placeHolder: "Which sessions should be proposed?", canPickMany: true });
  if (!chosen || chosen.length === 0) return undefined;
  const keys = new Set(chosen.map((c) => c.key));
  return { empty: keys.has("empty"), ...(keys.has("old") ? { olderThanDays: 90 } : {}), ...(keys.has("large") ? { largerThanBytes: 50 * 1024 * 1024 } : {}) };
}

function describeProposal(p: CleanupProposal): string {
  const why = p.reasons.map((r) => (r === "empty" ? "empty" : r === "old" ? `${counted(p.ageDays, "day")} unused` : "large"));
  return `${formatBytes(p.size)} · ${why.join(" · ")}`;
}

/** The workspace's sessions with what Clean Up judges them by. */
async function cleanupInputs(services: Services) {
  await services.sessions.sessionGroups();
  return services.sessions.allPaths().map((path) => {
    const session = services.store.peek(path);
    const facts = services.sessions.factsOf(path);
    let conversationMessages = 0;
    if (session) {
      for (const meta of session.index.entries) if (meta.type === "message" && (meta.role === "user" || meta.role === "assistant")) conversationMessages++;
    } else {
      // A listed session not opened: its catalogue row counts every message entry (an upper bound on
      // user + assistant ones, so nothing with a conversation is called empty); one never read, never empty.
      conversationMessages = facts?.messageCount ?? Number.POSITIVE_INFINITY;
    }
    // The file as it is now: a write since its facts were made (ours or pi's) is activity too.
    const stat = statOrUndefined(path);
    const lastActivity = new Date(Math.max(facts?.lastActivity.getTime() ?? Date.now(), lastActivityMs(0, stat?.mtimeMs ?? 0)));
    return { path, size: stat?.size ?? 0, lastActivity, conversationMessages };
  });
}

/**
 * Scripts pass `{empty, olderThanDays, largerThanMB}` to skip the criteria
 * question, `selectAll: true` to take every proposal, and `confirmed: true`;
 * `dryRun: true` returns the proposal (and its total size) and moves nothing.
 */
export async function cleanUp(services: Services, raw: unknown): Promise<CommandResult<TrashOutcome & { proposed: string[] }>> {
  const refused = refuseUntrusted("Clean Up", services.log);
  if (refused) return refused;
  const given = record(raw);
  const scripted = typeof given.empty === "boolean" || typeof given.olderThanDays === "number" || typeof given.largerThanMB === "number";
  const criteria = scripted
    ? {
        empty: given.empty === true,
        ...(typeof given.olderThanDays === "number" ? { olderThanDays: given.olderThanDays } : {}),
        ...(typeof given.largerThanMB === "number" ? { largerThanBytes: given.largerThanMB * 1024 * 1024 } : {}),
      }
    : await askCriteria();
  if (!criteria) return notDone("cancelled", "Nothing was moved.");
  const proposals = proposeCleanup(await cleanupInputs(services), { ...criteria, now: new Date() });
  if (proposals.length === 0) {
    void vscode.window.showInformationMessage("Clean Up: no session matches; nothing to move.");
    return ok({ moved: [], totalBytes: 0, proposed: [] });
  }
  if (given.dryRun === true) return ok({ moved: [], totalBytes: totalBytes(proposals), proposed: proposals.map((p) => p.path) });
  let chosen: CleanupProposal[] = proposals;
  if (given.selectAll !== true) {
    const items = proposals.map((p) => ({ label: services.sessions.factsOf(p.path)?.title ?? basename(p.path), description: describeProposal(p), detail: p.path, picked: true, proposal: p }));
    const picked = await vscode.window.showQuickPick(items, {
      title: `Pi Sessions: Clean Up — ${counted(proposals.length, "session")}, ${formatBytes(totalBytes(proposals))} in all`,
      placeHolder: "Untick what should stay; the picked sessions move to the trash after one more question",
      canPickMany: true,
      matchOnDetail: true,
    });
    if (!picked || picked.length === 0) return notDone("cancelled", "Nothing was moved.");
    chosen = picked.map((item) => item.proposal);
  }
  const result = await trashFiles(services, chosen, given.confirmed === true);
  return result.ok ? ok({ ...result.value, proposed: proposals.map((p) => p.path) }) : result;
}
