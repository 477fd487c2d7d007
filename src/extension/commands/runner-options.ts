// Options every runner call shares: agent dir, trust, resolved settings (the
// session's agent's files; for pi, piSessions.* over them), prompt files,
// files-touched, hooks.
import { sessionBranchReader } from "../../core/context/branch-reader";
import type { LoadedSession } from "../../core/session/open/open-session";
import { recordedCwd } from "../../core/session/open/session-info";
import { writerSemantics, type AgentConfigs, type AgentSemantics } from "../../core/agent";
import { piVersionChoice } from "../pi-version-choice";
import { writerAgentFor } from "../session-facts";
import { ompSessionsFolder, settingsOverrides, type ExtensionSettings } from "../settings";
import { isTrusted } from "../trust";

export function sessionCwd(session: LoadedSession): string {
  return recordedCwd(session) ?? process.cwd();
}

/** What the extension knows of each agent's files: pi's agent dir with the piSessions.* values over pi's settings; omp's agent dir (its config.yml alone). */
export function extensionAgentConfigs(settings: ExtensionSettings): AgentConfigs {
  return { pi: { agentDir: settings.agentDir, overrides: settingsOverrides(settings) }, omp: { agentDir: settings.omp.agentDir } };
}

/** The semantics whoever writes the session applies: omp's for an omp session (its marks, or omp's folder), else the chosen pi version's. */
export function writerSemanticsFor(session: LoadedSession, settings: ExtensionSettings): AgentSemantics {
  return writerSemantics(writerAgentFor(session, ompSessionsFolder(settings)), piVersionChoice(session, settings).version);
}

/** The compaction settings of whoever writes the session (pi 1.5: modelOverrides for the branch's model; throws pi 1.5's error on a bad value). */
export function compactionSettingsFor(session: LoadedSession, settings: ExtensionSettings, semantics: AgentSemantics) {
  // Only the newest entries that decide the model are parsed (not the whole branch).
  const model = semantics.branchModel(sessionBranchReader(session));
  return semantics.resolveCompactionSettings(semantics.settingsFrom(extensionAgentConfigs(settings), sessionCwd(session), isTrusted()), model ? `${model.provider}/${model.modelId}` : undefined);
}

/** The branch-summary settings of whoever writes the session: pi's files and piSessions.* overrides, or omp's config.yml files. */
export function branchSummarySettingsFor(session: LoadedSession, settings: ExtensionSettings, semantics: AgentSemantics) {
  return semantics.resolveBranchSummarySettings(semantics.settingsFrom(extensionAgentConfigs(settings), sessionCwd(session), isTrusted()));
}

/** Model calls get this long (retries included). */
export const MODEL_TIMEOUT_MS = 300_000;
