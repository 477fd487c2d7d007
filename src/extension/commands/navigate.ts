// Moving the leaf, as pi's /tree does: Navigate to Entry… (pi's choice: no
// summary, summarise, summarise with focus text) and Summarize Branch and
// Navigate…. With a summary, runBranchSummary summarises the abandoned
// branch in a cancellable progress notification; without one, the move is
// persisted (runNavigate, or runBranchSummary without a summary when hooks
// want to see it, as pi's session_before_tree does).
import { writerAgentFor } from "../session-facts";
import { ompSessionsFolder } from "../settings";
import * as vscode from "vscode";
import type { LoadedSession } from "../../core/session/open/open-session";
import { entryKind, entryPreview } from "../../core/tree/preview";
import { runBranchSummary, runNavigate } from "../../core/write";
import { commandArgs, type CommandArgs, type NavigateSummaryChoice } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { reportError } from "../error-actions";
import { piVersionChoice } from "../pi-version-choice";
import { withCancellableProgress } from "../progress";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";
import { branchSummarySettingsFor, MODEL_TIMEOUT_MS, sessionCwd, writerSemanticsFor } from "./runner-options";
import { isNotDone, sessionTarget } from "./session-target";
import { askFocus, pickPreset, summarizerChoice } from "./summary-choices";

export const NAVIGATE_COMMAND_ID = "piSessions.navigateToEntry";
export const SUMMARIZE_AND_NAVIGATE_COMMAND_ID = "piSessions.summarizeBranchAndNavigate";

export interface NavigateOutcome {
  written: boolean;
  outcome: string;
  newLeafId: string | null;
  oldLeafId: string | null;
  /** The branch_summary entry's id when one was written. */
  summaryEntryId: string | null;
  /** The navigation (custom) entry's id when the leaf moved without a summary. */
  navigateEntryId: string | null;
  editorText?: string;
}

async function pickTarget(session: LoadedSession, title: string): Promise<string | undefined> {
  const leafId = session.index.leafId;
  const items = [...session.index.entries]
    .reverse()
    .filter((meta) => meta.id !== leafId && !(meta.type === "message" && meta.role === "toolResult") && meta.type !== "label" && meta.type !== "custom")
    .map((meta) => {
      const label = session.index.labelOf(meta.id);
      return {
        label: entryPreview(session.entryAt(meta), 90),
        description: `${label ? `[${label}] · ` : ""}${entryKind(meta)} · ${meta.id}`,
        id: meta.id,
      };
    });
  return (await vscode.window.showQuickPick(items, { title, placeHolder: "Which entry should the leaf move to?", matchOnDescription: true }))?.id;
}

async function pickSummaryChoice(title: string): Promise<NavigateSummaryChoice | undefined> {
  const items: (vscode.QuickPickItem & { choice: NavigateSummaryChoice })[] = [
    { label: "No summary", detail: "Just move the leaf; the branch you leave stays in the file", choice: "none" },
    { label: "Summarize", detail: "Summarise the branch you leave and keep the summary at the new position", choice: "summarize" },
    { label: "Summarize with custom prompt…", detail: "As above, with focus text for the summary", choice: "focus" },
  ];
  return (await vscode.window.showQuickPick(items, { title, placeHolder: "Summarise the branch you are leaving?" }))?.choice;
}

async function navigate(services: Services, args: CommandArgs, forceSummary: boolean): Promise<CommandResult<NavigateOutcome>> {
  const what = forceSummary ? "Summarize Branch and Navigate" : "Navigate to Entry";
  const refused = refuseUntrusted(what, services.log);
  if (refused) return refused;
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const { path, session } = target;
  const title = `Pi Sessions: ${what}`;
  const settings = services.settings();
  try {
    const targetId = args.entryId ?? (await pickTarget(session, title));
    if (!targetId) return notDone("cancelled", "No target chosen.");
    // Summarize Branch and Navigate always summarises and asks for (optional) focus text.
    let summary: NavigateSummaryChoice | undefined = args.summary ?? (forceSummary ? "focus" : await pickSummaryChoice(title));
    if (!summary) return notDone("cancelled", "Cancelled.");
    if (forceSummary && summary === "none") summary = "summarize";

    if (summary === "none" && !services.hooks.has("before_branch_summary")) {
      const agent = writerAgentFor(session, ompSessionsFolder(settings));
      const moved = runNavigate({ session, targetId, agent, piVersion: piVersionChoice(session, settings).version, ...(args.label ? { label: args.label } : {}) });
      await services.store.refresh(path);
      services.log.info(`navigate ${path} to ${targetId}: ${moved.outcome}`);
      showEditorText(moved.editorText);
      return ok({ written: moved.written, outcome: moved.outcome, newLeafId: moved.newLeafId, oldLeafId: moved.oldLeafId, summaryEntryId: null, navigateEntryId: moved.entry?.id ?? null, ...(moved.editorText !== undefined ? { editorText: moved.editorText } : {}) });
    }

    let choice = "";
    let focus = args.focus ?? "";
    if (summary !== "none") {
      choice = args.model || args.digest ? "" : (args.preset ?? (await pickPreset(settings, session, title)) ?? "");
      if (!choice && !args.model && !args.digest) return notDone("cancelled", "No model chosen.");
      if (summary === "focus" && args.focus === undefined) {
        const asked = await askFocus(title);
        if (asked === undefined) return notDone("cancelled", "Cancelled at the focus question.");
        focus = asked;
      }
    }
    const semantics = writerSemanticsFor(session, settings);
    const agent = semantics.agent.agent;
    const resolved = branchSummarySettingsFor(session, settings, semantics);
    const runtimeApiKeys = await services.apiKeys.runtimeKeys();
    const confirm = args.confirm ?? settings.compaction.confirm;
    const result = await withCancellableProgress("Summarising the branch", args.token, (signal, report) =>
      runBranchSummary({
        session,
        piVersion: piVersionChoice(session, settings).version,
        agent,
        targetId,
        summarize: summary !== "none",
        agentDir: settings.agentDir,
        ompAgentDir: settings.omp.agentDir,
        cwd: sessionCwd(session),
        trustProject: true,
        settings: resolved.settings,
        summarizer: summarizerChoice(choice, args, settings, runtimeApiKeys, true),
        ...(focus.trim() ? { instructions: focus.trim() } : {}),
        ...(args.label ? { label: args.label } : {}),
        ...(settings.branchSummaryPromptFile ? { promptFile: settings.branchSummaryPromptFile } : {}),
        filesTouched: settings.filesTouched,
        signal,
        hooks: services.hooks,
        onProgress: report,
        timeoutMs: MODEL_TIMEOUT_MS,
        ...(confirm ? { confirm: (proposal) => services.presenter.confirm({ session, kind: "branch_summary", entry: proposal.entry, model: proposal.model }) } : {}),
      }),
    );
    for (const warning of result.warnings) services.log.warn(warning);
    const fresh = (await services.store.refresh(path)) ?? session;
    services.log.info(`branch summary ${path} → ${targetId}: ${result.outcome}${result.entry ? ` (entry ${result.entry.id}, ${result.model})` : ""}`);
    if (result.written) {
      services.didBranchSummary.fire({ sessionPath: path, entry: result.entry, newLeafId: result.newLeafId, oldLeafId: result.oldLeafId, model: result.model });
      if (result.entry) void services.presenter.showResult(fresh, result.entry, { model: result.model ?? undefined }).catch(() => undefined);
      showEditorText(result.editorText);
    } else if (result.outcome === "cancelled") {
      void vscode.window.showInformationMessage("A before-branch-summary hook cancelled the move: nothing was written.");
    }
    return ok({
      written: result.written,
      outcome: result.outcome,
      newLeafId: result.newLeafId,
      oldLeafId: result.oldLeafId,
      summaryEntryId: result.entry?.id ?? null,
      navigateEntryId: result.navigateEntry?.id ?? null,
      ...(result.editorText !== undefined ? { editorText: result.editorText } : {}),
    });
  } catch (error) {
    services.presenter.applyFailed(path, error instanceof Error ? error.message : String(error));
    return reportError(error, what, { log: services.log, sessionPath: path });
  }
}

/** pi puts a re-edited user message back into its editor; here it is offered for copying. */
function showEditorText(text: string | undefined): void {
  if (!text) return;
  void vscode.window.showInformationMessage("The leaf is now just before that message, as in pi: its text can be sent again.", "Copy Message Text").then((answer) => {
    if (answer) void vscode.env.clipboard.writeText(text);
  });
}

export function navigateToEntry(services: Services, raw: unknown): Promise<CommandResult<NavigateOutcome>> {
  return navigate(services, commandArgs(raw), false);
}

export function summarizeBranchAndNavigate(services: Services, raw: unknown): Promise<CommandResult<NavigateOutcome>> {
  return navigate(services, commandArgs(raw), true);
}
