import type { CompactionSettings } from "../settings/compaction-settings.js";

/** pi's auto-compaction threshold: enabled and past the window minus the reserve. */
export function shouldCompact(
  contextTokens: number,
  contextWindow: number,
  settings: Pick<CompactionSettings, "enabled" | "reserveTokens">,
): boolean {
  if (!settings.enabled) return false;
  return contextTokens > contextWindow - settings.reserveTokens;
}
