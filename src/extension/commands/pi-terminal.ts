// Continuing in pi: Open in pi (`pi --session <path>`), Fork into New Session
// (`pi --fork <path>`), Continue from Here (persist the move to an entry, as
// Navigate does, then open pi on the session) and Copy Resume Command. pi runs
// in an integrated terminal named after the session, started directly (no
// shell in between: the terminal's process IS the pi invocation), in the
// session's recorded cwd when that folder exists. The executable is
// piSessions.piCommand (a machine setting: a workspace cannot choose what runs)
// or `pi` on PATH. In Restricted Mode nothing is started.
import { existsSync, statSync } from "node:fs";
import { basename } from "node:path";
import * as vscode from "vscode";
import type { LoadedSession } from "../../core/session/open/open-session";
import { recordedCwd } from "../../core/session/open/session-info";
import { findPiExecutable, PI_INSTALL_COMMAND, piArgs, piCommandLine, shellQuote, type PiAction } from "../../core/pi-cli/pi-invocation";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import type { Services } from "../services";
import { SETTINGS_SECTION } from "../settings";
import { navigateToEntry } from "./navigate";
import { isNotDone, sessionTarget } from "./session-target";

export const OPEN_IN_PI_COMMAND_ID = "piSessions.openInPi";
export const FORK_IN_PI_COMMAND_ID = "piSessions.forkInPi";
export const CONTINUE_FROM_HERE_COMMAND_ID = "piSessions.continueFromHere";
export const COPY_RESUME_COMMAND_ID = "piSessions.copyResumeCommand";

export interface PiLaunch {
  terminalName: string;
  shellPath: string;
  shellArgs: string[];
  cwd: string | undefined;
  commandLine: string;
}

function configuredPiCommand(): string {
  return vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>("piCommand", "").trim();
}

/** The pi executable, or undefined after telling the user how to get one. */
function resolvePi(services: Services): string | undefined {
  const configured = configuredPiCommand();
  const found = findPiExecutable(configured || undefined);
  if (found) return found;
  const problem = configured ? `piSessions.piCommand "${configured}" is not an executable file (or a command on PATH)` : "pi is not on PATH";
  const message = `Pi Sessions: ${problem}. Install pi with \`${PI_INSTALL_COMMAND}\`, or set piSessions.piCommand to pi's path.`;
  services.log.warn(message);
  void vscode.window.showErrorMessage(message, "Copy Install Command", "Open Settings").then((choice) => {
    if (choice === "Copy Install Command") void vscode.env.clipboard.writeText(PI_INSTALL_COMMAND);
    if (choice === "Open Settings") void vscode.commands.executeCommand("workbench.action.openSettings", `${SETTINGS_SECTION}.piCommand`);
  });
  return undefined;
}

function refuseRunUntrusted(what: string, services: Services): CommandResult<never> | undefined {
  if (vscode.workspace.isTrusted) return undefined;
  const message = `${what} starts pi, and in Restricted Mode Pi Sessions runs nothing. Trust the workspace to continue in pi, or use Copy Resume Command.`;
  services.log.warn(`refused in Restricted Mode: ${what}`);
  void vscode.window.showWarningMessage(message, "Manage Workspace Trust").then((choice) => {
    if (choice) void vscode.commands.executeCommand("workbench.trust.manage");
  });
  return notDone("untrusted", message);
}

/** The session's recorded cwd when it is an existing folder, else the first workspace folder. */
function launchCwd(session: LoadedSession): string | undefined {
  const cwd = recordedCwd(session);
  try {
    if (cwd && existsSync(cwd) && statSync(cwd).isDirectory()) return cwd;
  } catch {
    // Not readable: fall back below.
  }
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}

function sessionTitle(services: Services, path: string): string {
  return services.sessions.factsOf(path)?.title ?? basename(path);
}

async function launchPi(services: Services, raw: unknown, action: PiAction, what: string): Promise<CommandResult<PiLaunch>> {
  const refused = refuseRunUntrusted(what, services);
  if (refused) return refused;
  const target = await sessionTarget(services, commandArgs(raw));
  if (isNotDone(target)) return target;
  const shellPath = resolvePi(services);
  if (!shellPath) return notDone("not-applicable", `pi was not found; install it with ${PI_INSTALL_COMMAND} or set piSessions.piCommand.`);
  const shellArgs = piArgs(action, target.path);
  const cwd = launchCwd(target.session);
  const terminalName = `pi${action === "fork" ? " (fork)" : ""}: ${sessionTitle(services, target.path)}`;
  // pi uses the agent dir these views read when piSessions.agentDir names one (its forks land there too).
  const agentDirSet = vscode.workspace.getConfiguration(SETTINGS_SECTION).get<string>("agentDir", "").trim() !== "";
  const env = agentDirSet ? { PI_CODING_AGENT_DIR: services.settings().agentDir } : undefined;
  const terminal = vscode.window.createTerminal({ name: terminalName, shellPath, shellArgs, ...(cwd ? { cwd } : {}), ...(env ? { env } : {}), iconPath: new vscode.ThemeIcon("terminal") });
  terminal.show();
  const commandLine = piCommandLine(shellPath, shellArgs);
  services.log.info(`${what}: ${commandLine}${cwd ? ` (in ${cwd})` : ""}`);
  return ok({ terminalName, shellPath, shellArgs, cwd, commandLine });
}

export function openInPi(services: Services, raw: unknown): Promise<CommandResult<PiLaunch>> {
  return launchPi(services, raw, "resume", "Open in pi");
}

export function forkInPi(services: Services, raw: unknown): Promise<CommandResult<PiLaunch>> {
  return launchPi(services, raw, "fork", "Fork into New Session");
}

/** Moves the leaf to the entry (Navigate's choices: no summary, or a branch summary) and opens pi there. */
export async function continueFromHere(services: Services, raw: unknown): Promise<CommandResult<PiLaunch & { navigated: boolean }>> {
  const refused = refuseRunUntrusted("Continue from Here", services);
  if (refused) return refused;
  const args = commandArgs(raw);
  if (!args.entryId) return notDone("not-applicable", "No entry given.");
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  let navigated = false;
  if (target.session.index.leafId !== args.entryId) {
    const moved = await navigateToEntry(services, raw);
    if (!moved.ok) return moved;
    navigated = moved.value.written;
  }
  const launched = await launchPi(services, { sessionPath: target.path }, "resume", "Continue from Here");
  return launched.ok ? ok({ ...launched.value, navigated }) : launched;
}

/** `cd <cwd> && pi --session <path>` on the clipboard (runs nothing, so Restricted Mode allows it). */
export async function copyResumeCommand(services: Services, raw: unknown): Promise<CommandResult<{ text: string }>> {
  const target = await sessionTarget(services, commandArgs(raw));
  if (isNotDone(target)) return target;
  const command = configuredPiCommand() || "pi";
  const resume = piCommandLine(command, piArgs("resume", target.path));
  const cwd = recordedCwd(target.session);
  const text = cwd && process.platform !== "win32" ? `cd ${shellQuote(cwd)} && ${resume}` : resume;
  await vscode.env.clipboard.writeText(text);
  void vscode.window.showInformationMessage(`Copied: ${text}`);
  return ok({ text });
}
