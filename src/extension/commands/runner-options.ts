// Options every runner call shares: agent dir, trust, resolved settings (pi's
// files, then piSessions.* overrides), prompt files, files-touched, hooks.
import type { LoadedSession } from "../../core/session/open-session";
import { recordedCwd } from "../../core/session/session-info";
import { resolveBranchSummarySettings, resolveCompactionSettings } from "../../core/settings";
import { settingsOverrides, type ExtensionSettings } from "../settings";
import { isTrusted } from "../trust";

export function sessionCwd(session: LoadedSession): string {
  return recordedCwd(session) ?? process.cwd();
}

export function compactionSettingsFor(session: LoadedSession, settings: ExtensionSettings) {
  return resolveCompactionSettings({ agentDir: settings.agentDir, cwd: sessionCwd(session), trustProject: isTrusted(), overrides: settingsOverrides(settings) });
}

export function branchSummarySettingsFor(session: LoadedSession, settings: ExtensionSettings) {
  return resolveBranchSummarySettings({ agentDir: settings.agentDir, cwd: sessionCwd(session), trustProject: isTrusted(), overrides: settingsOverrides(settings) });
}

/** Model calls get this long (retries included). */
export const MODEL_TIMEOUT_MS = 300_000;
