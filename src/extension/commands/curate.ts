// Curating without pi: Rename Session… (a session_info entry), Set Label… /
// Clear Label (a label entry), Fork Session Here (a new session file holding
// root→entry) and Clone Branch (the same at the leaf, pi's /clone). All write
// through the core's safe writers; the views update from the store at once.
import { sessionNameOf, writerAgentFor } from "../session-facts";
import { ompSessionsFolder } from "../settings";
import { basename } from "node:path";
import * as vscode from "vscode";
import { forkSession, renameSession, setLabel } from "../../core/write";
import { writerSemantics } from "../../core/agent";
import { commandArgs, type CommandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { reportError } from "../error-actions";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";
import { isNotDone, sessionTarget } from "./session-target";
import { counted } from "../../core/text/counted";

export const RENAME_COMMAND_ID = "piSessions.renameSession";
export const SET_LABEL_COMMAND_ID = "piSessions.setLabel";
export const CLEAR_LABEL_COMMAND_ID = "piSessions.clearLabel";
export const FORK_HERE_COMMAND_ID = "piSessions.forkSessionHere";
export const CLONE_BRANCH_COMMAND_ID = "piSessions.cloneBranch";

/** Scripts pass `name` (rename) or `label` (set label) to skip the input box. */
function argString(raw: unknown, key: string): string | undefined {
  const value = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? value : undefined;
}

export async function renameSessionCommand(services: Services, raw: unknown): Promise<CommandResult<{ name: string; entryId: string; notice?: string }>> {
  const refused = refuseUntrusted("Rename Session", services.log);
  if (refused) return refused;
  const target = await sessionTarget(services, commandArgs(raw));
  if (isNotDone(target)) return target;
  const { path, session } = target;
  // pi 0.73 and 1.5 name a session alike.
  const semantics = writerSemantics(writerAgentFor(session, ompSessionsFolder(services.settings())), "0.73");
  const agent = semantics.agent.agent;
  // The name the session has now, by its agent's rule (omp: the title slot, never pi's session_info).
  const current = sessionNameOf(session, agent);
  const writer = semantics.renameWriter;
  const name =
    argString(raw, "name") ??
    (await vscode.window.showInputBox({
      title: "Pi Sessions: Rename Session",
      prompt: writer.prompt,
      value: current ?? "",
      validateInput: (value) => (writer.clean(value) ? undefined : `${agent} does not set an empty name`),
    }));
  if (name === undefined) return notDone("cancelled", "Cancelled.");
  try {
    const result = renameSession({ session, name, agent, ...(services.settings().omp.agentDir ? { ompAgentDir: services.settings().omp.agentDir } : {}) });
    await services.store.refresh(path);
    services.log.info(`rename ${path}: "${result.name}" (entry ${result.entry.id})${result.notice ? `; ${result.notice}` : ""}`);
    if (result.notice) void vscode.window.showInformationMessage(`Renamed to "${result.name}". ${result.notice[0]!.toUpperCase()}${result.notice.slice(1)}.`);
    return ok({ name: result.name, entryId: result.entry.id, ...(result.notice ? { notice: result.notice } : {}) });
  } catch (error) {
    return reportError(error, "Rename Session", { log: services.log, sessionPath: path });
  }
}

async function label(services: Services, raw: unknown, clear: boolean): Promise<CommandResult<{ targetId: string; label: string | null; entryId: string }>> {
  const what = clear ? "Clear Label" : "Set Label";
  const refused = refuseUntrusted(what, services.log);
  if (refused) return refused;
  const args = commandArgs(raw);
  if (!args.entryId) return notDone("not-applicable", "No entry given.");
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const { path, session } = target;
  const targetId = args.entryId;
  let text: string | undefined;
  if (!clear) {
    text =
      args.label ??
      (await vscode.window.showInputBox({
        title: "Pi Sessions: Set Label",
        prompt: `A label for ${targetId}, as pi's /tree sets it (empty clears it).`,
        value: session.index.labelOf(targetId) ?? "",
      }));
    if (text === undefined) return notDone("cancelled", "Cancelled.");
  }
  try {
    const result = setLabel({ session, targetId, label: text, agent: writerAgentFor(session, ompSessionsFolder(services.settings())) });
    await services.store.refresh(path);
    services.log.info(`label ${path} ${targetId}: ${result.label === null ? "cleared" : `"${result.label}"`} (entry ${result.entry.id})`);
    return ok({ targetId, label: result.label, entryId: result.entry.id });
  } catch (error) {
    return reportError(error, what, { log: services.log, sessionPath: path });
  }
}

export function setLabelCommand(services: Services, raw: unknown): ReturnType<typeof label> {
  return label(services, raw, false);
}

export function clearLabelCommand(services: Services, raw: unknown): ReturnType<typeof label> {
  return label(services, raw, true);
}

export interface ForkOutcome {
  path: string;
  id: string;
  atId: string;
  entries: number;
}

async function fork(services: Services, args: CommandArgs, atLeaf: boolean): Promise<CommandResult<ForkOutcome>> {
  const what = atLeaf ? "Clone Branch" : "Fork Session Here";
  const refused = refuseUntrusted(what, services.log);
  if (refused) return refused;
  if (!atLeaf && !args.entryId) return notDone("not-applicable", "No entry given.");
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const { path, session } = target;
  try {
    const settings = services.settings();
    const agent = writerAgentFor(session, ompSessionsFolder(settings));
    const result = forkSession({ session, agentDir: settings.agentDir, agent, ompAgentDir: settings.omp.agentDir, ...(atLeaf ? {} : { atId: args.entryId }) });
    services.log.info(`${what} ${path} at ${result.atId} → ${result.path}`);
    await services.sessions.rediscover();
    const listed = services.sessions.allPaths().includes(result.path);
    void vscode.window
      .showInformationMessage(
        `${what}: new session ${basename(result.path)} (${counted(result.entries.length, "entry")}, root → ${result.atId})${listed ? "" : `, in ${result.path}`}.`,
        "Show Entries",
        "Open in pi",
      )
      .then((choice) => {
        if (choice === "Show Entries") void vscode.commands.executeCommand("piSessions.openSession", { sessionPath: result.path });
        if (choice === "Open in pi") void vscode.commands.executeCommand("piSessions.openInPi", { sessionPath: result.path });
      });
    return ok({ path: result.path, id: result.header.id, atId: result.atId, entries: result.entries.length });
  } catch (error) {
    return reportError(error, what, { log: services.log, sessionPath: path });
  }
}

export function forkSessionHere(services: Services, raw: unknown): Promise<CommandResult<ForkOutcome>> {
  return fork(services, commandArgs(raw), false);
}

export function cloneBranch(services: Services, raw: unknown): Promise<CommandResult<ForkOutcome>> {
  return fork(services, commandArgs(raw), true);
}
