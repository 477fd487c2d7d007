// Options every runner call shares: agent dir, trust, resolved settings (pi's
// files, then piSessions.* overrides), prompt files, files-touched, hooks.
import type { LoadedSession } from "../../core/session/open/open-session";
import { recordedCwd } from "../../core/session/open/session-info";
import { semanticsFor, writerSemantics, type AgentName } from "../../core/agent";
import { resolveBranchSummarySettings } from "../../core/settings";
import { piVersionChoice } from "../pi-version-choice";
import { settingsOverrides, type ExtensionSettings } from "../settings";
import { isTrusted } from "../trust";

export function sessionCwd(session: LoadedSession): string {
  return recordedCwd(session) ?? process.cwd();
}

/** The session's pi version's compaction settings (1.5: modelOverrides for the branch's model; throws pi 1.5's error on a bad value). */
export function compactionSettingsFor(session: LoadedSession, settings: ExtensionSettings) {
  const semantics = semanticsFor(piVersionChoice(session, settings).version);
  const model = semantics.buildSessionContext(session.pathTo()).model;
  return semantics.resolveCompactionSettings(
    { agentDir: settings.agentDir, cwd: sessionCwd(session), trustProject: isTrusted(), overrides: settingsOverrides(settings) },
    model ? `${model.provider}/${model.modelId}` : undefined,
  );
}

/** The branch-summary settings of whoever writes the session: pi's files and piSessions.* overrides, or omp's config.yml files. */
export function branchSummarySettingsFor(session: LoadedSession, settings: ExtensionSettings, agent: AgentName = "pi") {
  if (agent === "omp") return writerSemantics("omp", "0.73").resolveBranchSummarySettings({ agentDir: settings.omp.agentDir, cwd: sessionCwd(session), trustProject: isTrusted() });
  return resolveBranchSummarySettings({ agentDir: settings.agentDir, cwd: sessionCwd(session), trustProject: isTrusted(), overrides: settingsOverrides(settings) });
}

/** Model calls get this long (retries included). */
export const MODEL_TIMEOUT_MS = 300_000;
