// Pi Sessions: Session Changes to This File — VS Code's diff editor on the
// file before and after one session's changes (replayed from pi write/edit
// calls), and each change on its own; bash changes are listed without a diff.
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import * as vscode from "vscode";
import { fileChangeSteps, reconstructFileVersions, sessionDiff, type FileChangeStep, type SessionDiff, type SessionDiffSource, type StepVersions } from "../../core/file-history";
import { recordedCwd } from "../../core/session/open/session-info";
import { notDone, ok, type CommandResult } from "../command-result";
import { openEntry } from "../commands/entry-actions";
import type { Services } from "../services";
import type { ReadOnlyDocuments } from "../read-only-documents";
import { fileCommandArgs } from "./file-target";
import type { FileTouchIndex } from "./file-touch-index";
import { describeTouch, fileTouchRows } from "./sessions-touching-file";

export const SESSION_CHANGES_TO_FILE_COMMAND_ID = "piSessions.sessionChangesToFile";

export interface ChangesShown {
  sessionPath: string;
  steps: number;
  beforeKnown: boolean;
  afterKnown: boolean;
  /** For "all": where the two sides come from (the session, today's file as the start, or the changes alone). */
  source?: SessionDiffSource;
  /** What was opened: the whole session's diff, one step's, or the step's entry. */
  opened: "all" | "step" | "entry";
}

type Step = FileChangeStep & StepVersions;

interface StepItem extends vscode.QuickPickItem {
  choice: "all" | number;
}

function stepLabel(step: Step): string {
  if (step.kind === "write") return `$(new-file) write`;
  if (step.kind === "edit") return `$(edit) edit · ${step.edits.length} replacement${step.edits.length === 1 ? "" : "s"}`;
  return `$(terminal) ${step.ops} ${describeTouch(step)}`.slice(0, 160);
}

function items(steps: readonly Step[], diff: SessionDiff): StepItem[] {
  const all: StepItem = { label: "$(diff) All changes of this session", description: diff.description, choice: "all" };
  return [
    all,
    ...steps.map((step, i): StepItem => ({
      label: stepLabel(step),
      description: step.kind === "other" ? "no diff: the session does not hold the content (opens the entry)" : undefined,
      detail: [step.timestamp ? new Date(step.timestamp).toLocaleString() : "", step.entryId].filter(Boolean).join(" · "),
      choice: i,
    })),
  ];
}

async function diskContent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch {
    return undefined;
  }
}

export async function sessionChangesToFile(services: Services, index: FileTouchIndex, documents: ReadOnlyDocuments, raw: unknown): Promise<CommandResult<ChangesShown>> {
  const args = fileCommandArgs(raw);
  if (!args.path) {
    void vscode.window.showInformationMessage("Open a file (or pick one in the Explorer) to see what a pi session changed in it.");
    return notDone("not-applicable", "No file.");
  }
  const path = args.path;
  const name = basename(path);

  let sessionPath = args.sessionPath;
  if (!sessionPath) {
    const changing = (await fileTouchRows(services, index, path, args.scope ?? "workspace")).filter((row) => /[WEMD]/.test(row.ops));
    const sessions = [...new Map(changing.map((row) => [row.sessionPath, row])).values()];
    if (sessions.length === 0) {
      void vscode.window.showInformationMessage(`No pi session of this workspace changed ${name}.`);
      return notDone("not-applicable", "No session changed the file.");
    }
    if (sessions.length === 1) sessionPath = sessions[0]!.sessionPath;
    else {
      const picked = await vscode.window.showQuickPick(
        sessions.map((row) => ({ label: row.sessionTitle, description: row.timestamp ? new Date(row.timestamp).toLocaleString() : "", sessionPath: row.sessionPath })),
        { title: `Sessions that changed ${name}`, placeHolder: "Pick a session (newest first)" },
      );
      if (!picked) return notDone("cancelled", "No session chosen.");
      sessionPath = picked.sessionPath;
    }
  }

  const session = await services.store.get(sessionPath);
  const steps = fileChangeSteps(session.entries(), path, { cwd: recordedCwd(session) ?? "/" });
  const current = await diskContent(path);
  const versions = reconstructFileVersions(steps, current);
  const diff = sessionDiff(versions, current);
  const shown = (opened: ChangesShown["opened"]): CommandResult<ChangesShown> =>
    ok({ sessionPath: sessionPath!, steps: steps.length, beforeKnown: versions.before !== undefined, afterKnown: versions.after !== undefined, opened, ...(opened === "all" ? { source: diff.source } : {}) });
  if (steps.length === 0) {
    void vscode.window.showInformationMessage(`This session did not touch ${name}.`);
    return notDone("not-applicable", "The session did not touch the file.");
  }

  let choice = args.step;
  if (choice === undefined) {
    const picked = await vscode.window.showQuickPick(items(versions.steps, diff), { title: `${name}: what the session did`, placeHolder: "The whole session, or one change" });
    if (!picked) return notDone("cancelled", "Nothing chosen.");
    choice = picked.choice;
  }
  const title = services.sessions.factsOf(sessionPath)?.title ?? basename(sessionPath);
  if (choice === "all") {
    // Never today's file as a side: the diff is what the session did (session-diff.ts).
    const language = diff.source === "changes" ? "plain" : "by-name";
    const left = documents.uriFor(name, "before", diff.before, language);
    const right = documents.uriFor(name, "after", diff.after, language);
    await vscode.commands.executeCommand("vscode.diff", left, right, `${name}: ${diff.description} “${title}”`);
    return shown("all");
  }
  const step = versions.steps[choice];
  if (!step) return notDone("not-applicable", "No such change.");
  if (step.kind === "other") {
    await openEntry(services, sessionPath, step.entryId);
    return shown("entry");
  }
  const before = step.before ?? (step.kind === "edit" ? step.edits.map((e) => e.oldText).join("\n⋯\n") : "");
  const after = step.after ?? (step.kind === "edit" ? step.edits.map((e) => e.newText).join("\n⋯\n") : step.content);
  const fragment = step.kind === "edit" && (step.before === undefined || step.after === undefined);
  const partial = fragment ? " (replaced text only)" : "";
  // A write's content alone is the whole file after it; the side before it, when unknown, is empty.
  const language = fragment ? "plain" : "by-name";
  await vscode.commands.executeCommand("vscode.diff", documents.uriFor(name, "before", before, language), documents.uriFor(name, "after", after, language), `${name}: ${step.kind} ${step.entryId}${partial}`);
  return shown("step");
}
