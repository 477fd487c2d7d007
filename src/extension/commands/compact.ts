// Pi Sessions: Compact Session — asks for the model (preset) and focus text,
// runs runCompaction in a cancellable progress notification (Cancel aborts
// the model request; nothing is written on cancel or failure), previews the
// summary first when piSessions.compaction.confirm is on, then refreshes the
// views and shows the written entry.
import * as vscode from "vscode";
import type { CompactionRunResult } from "../../core/write";
import { runCompaction } from "../../core/write";
import { commandArgs } from "../command-args";
import { notDone, ok, type CommandResult } from "../command-result";
import { piVersionChoice } from "../pi-version-choice";
import { reportError } from "../error-actions";
import { withCancellableProgress } from "../progress";
import type { Services } from "../services";
import { refuseUntrusted } from "../trust";
import { compactionSettingsFor, MODEL_TIMEOUT_MS, sessionCwd, writerSemanticsFor } from "./runner-options";
import { isNotDone, sessionTarget } from "./session-target";
import { askFocus, pickPreset, summarizerChoice } from "./summary-choices";

export const COMPACT_COMMAND_ID = "piSessions.compactSession";

export async function compactSession(services: Services, raw: unknown): Promise<CommandResult<CompactionRunResult>> {
  const refused = refuseUntrusted("Compact Session", services.log);
  if (refused) return refused;
  const args = commandArgs(raw);
  const target = await sessionTarget(services, args);
  if (isNotDone(target)) return target;
  const { path, session } = target;
  const settings = services.settings();
  const title = "Pi Sessions: Compact Session";
  try {
    const choice = args.model || args.digest ? "" : (args.preset ?? (await pickPreset(settings, session, title)));
    if (choice === undefined) return notDone("cancelled", "No model chosen.");
    const focus = args.focus ?? (await askFocus(title));
    if (focus === undefined) return notDone("cancelled", "Cancelled at the focus question.");
    const semantics = writerSemanticsFor(session, settings);
    const resolved = compactionSettingsFor(session, settings, semantics);
    for (const d of resolved.diagnostics) services.log.warn(d.message);
    const runtimeApiKeys = await services.apiKeys.runtimeKeys();
    const confirm = args.confirm ?? settings.compaction.confirm;
    services.log.info(`compact ${path}${args.entryId ? ` up to ${args.entryId}` : ""} with ${args.model ?? (args.digest ? "digest" : choice)}`);
    const result = await withCancellableProgress("Compacting the session", args.token, (signal, report) =>
      runCompaction({
        session,
        piVersion: piVersionChoice(session, settings).version,
        ...(args.entryId ? { leafId: args.entryId } : {}),
        agentDir: settings.agentDir,
        cwd: sessionCwd(session),
        trustProject: true,
        agent: semantics.agent.agent,
        ompAgentDir: settings.omp.agentDir,
        // The agent's own settings (omp: its config.yml files; pi: its settings files under piSessions.*).
        settings: resolved.settings,
        summarizer: summarizerChoice(choice, args, settings, runtimeApiKeys, true),
        ...(focus.trim() ? { instructions: focus.trim() } : {}),
        ...(settings.compactionPromptFile ? { promptFile: settings.compactionPromptFile } : {}),
        filesTouched: settings.filesTouched,
        signal,
        hooks: services.hooks,
        onProgress: report,
        timeoutMs: MODEL_TIMEOUT_MS,
        ...(confirm
          ? {
              confirm: (proposal) =>
                services.presenter.confirm({ session, kind: "compaction", entry: proposal.entry, tokensBefore: proposal.tokensBefore, tokensAfter: proposal.tokensAfter, model: proposal.model }),
            }
          : {}),
      }),
    );
    for (const warning of result.warnings) services.log.warn(warning);
    const fresh = (await services.store.refresh(path)) ?? session;
    if (!result.written || !result.entry) {
      const message = result.outcome === "cancelled" ? "A before-compact hook cancelled the compaction: nothing was written." : "Discarded: nothing was written.";
      services.log.info(message);
      void vscode.window.showInformationMessage(message);
      return ok(result);
    }
    services.didCompact.fire({ sessionPath: path, entry: result.entry, model: result.model, tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter });
    services.log.info(`compaction ${result.entry.id} written (${result.tokensBefore} → ${result.tokensAfter ?? "?"} tokens, ${result.model})`);
    void services.presenter.showResult(fresh, result.entry, { tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, model: result.model }).catch((error: unknown) => {
      services.log.warn(`cannot show the result: ${error instanceof Error ? error.message : String(error)}`);
    });
    const warning = result.digest && !args.digest && choice !== "digest" ? " (no model was available: a digest was written)" : "";
    void vscode.window
      .showInformationMessage(`Compacted: ${result.tokensBefore.toLocaleString("en-US")} → ${(result.tokensAfter ?? 0).toLocaleString("en-US")} tokens with ${result.model}${warning}.`, "Undo")
      .then((answer) => {
        if (answer === "Undo") void vscode.commands.executeCommand("piSessions.undoCompaction", { sessionPath: path, entryId: result.entry?.id });
      });
    return ok(result);
  } catch (error) {
    services.presenter.applyFailed(path, error instanceof Error ? error.message : String(error));
    return reportError(error, "Compact Session", { log: services.log, sessionPath: path });
  }
}
