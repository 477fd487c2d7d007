// The state of a panel VS Code restores after a reload (WebviewPanelSerializer).
// Pure (no vscode). Decisions:
// - view of an entry still in the session file: rebuilt from the file (fresh
//   summary, files and marks), keeping the runner's tokensAfter (not in the file);
// - view whose session file or entry is gone: the saved state, marks refreshed,
//   with a notice saying so;
// - preview: the run that waited for Apply ended with the old extension host,
//   so nothing can be applied any more. It stays a preview (the webview keeps
//   the user's draft when the summary is unchanged) but read-only, with a notice.

import type { LoadedSession } from "../../core/session/open/open-session";
import type { PersistedWebviewState, SummaryFile, SummaryPanelState } from "../../webview/protocol";
import { buildPanelState, type PanelEnvironment } from "./build-panel-state";

export const RESTORED_PREVIEW_NOTICE =
  "This preview was not applied before the window reloaded. The run that proposed it has ended and nothing was written: copy the text if you want it, or run the command again.";
export const SESSION_GONE_NOTICE = "The session file is no longer there: this is the summary as it was last shown.";
export const ENTRY_GONE_NOTICE = "This entry is no longer in the session file: this is the summary as it was last shown.";

function refreshMarks(files: readonly SummaryFile[], env: PanelEnvironment): SummaryFile[] {
  return files.map((file) => ({
    ...file,
    deleted: file.ops.includes("D") && !env.exists(file.path),
    open: env.openPaths.has(file.path),
  }));
}

function kept(panel: SummaryPanelState, env: PanelEnvironment, changes: Partial<SummaryPanelState>): SummaryPanelState {
  return { ...panel, ...changes, files: refreshMarks(panel.files, env) };
}

/**
 * `session`: the session file read again (undefined when it cannot be read).
 * `readOnly`: whether writing is forbidden now (untrusted workspace).
 */
export async function restoredPanelState(
  persisted: PersistedWebviewState,
  session: LoadedSession | undefined,
  env: PanelEnvironment,
  readOnly: boolean,
): Promise<SummaryPanelState> {
  const panel = persisted.panel;
  if (panel.mode === "preview") return kept(panel, env, { readOnly: true, notice: RESTORED_PREVIEW_NOTICE });
  if (!session) return kept(panel, env, { readOnly, notice: SESSION_GONE_NOTICE });
  const entry = panel.entryId ? session.entry(panel.entryId) : undefined;
  if (!entry || entry.type !== panel.kind) return kept(panel, env, { readOnly, notice: ENTRY_GONE_NOTICE });
  const extras = panel.tokensAfter !== undefined ? { tokensAfter: panel.tokensAfter } : {};
  const built = await buildPanelState(session, entry, env, { mode: "view", readOnly, extras });
  return built?.state ?? kept(panel, env, { readOnly, notice: ENTRY_GONE_NOTICE });
}
