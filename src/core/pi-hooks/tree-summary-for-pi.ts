// What pi's own session_before_tree gets from our core when the user wants a
// summary of the branch being left: the summary by the default preset's model
// (or the session's), the branch prompt file, the grounded files-touched block
// of the abandoned entries, bounded. pi's hook lets an extension return the
// whole summary; pi still decides where the entry goes, its fromId and label.
// Same failure policy as compactions: preset → session model → pi's own.

import type { PiVersion } from "../session/format/pi-version.js";
import type { SessionEntry, Usage } from "../session/format/types.js";
import { resolveBranchSummarySettings } from "../settings/index.js";
import { readPiSessionsConfig } from "../summarize/pi-sessions-config.js";
import { buildBranchSummaryText, type SummarizerChoice } from "../write/index.js";
import { summaryAttempts, type PiHookOutcome } from "./attempts.js";
import { parsePresetFlags } from "./preset-flags.js";

export interface PiTreeInput {
  piVersion: PiVersion;
  agentDir: string;
  /** The branch being left, root→old leaf (gives the session model). */
  pathEntries: readonly SessionEntry[];
  /** pi's preparation.entriesToSummarize. */
  entries: readonly SessionEntry[];
  customInstructions?: string;
  replaceInstructions?: boolean;
  cwd: string;
  signal?: AbortSignal;
  runtimeApiKeys?: Record<string, string>;
  timeoutMs?: number;
}

export interface PiTreeSummary {
  summary: string;
  details: unknown;
  usage?: Usage;
}

export async function treeSummaryForPi(input: PiTreeInput): Promise<PiHookOutcome<PiTreeSummary>> {
  if (input.entries.length === 0) return { kind: "stock", reasons: ["nothing to summarise"], warnings: [] };
  const flags = parsePresetFlags(input.customInstructions);
  const config = await readPiSessionsConfig(input.agentDir).catch(() => undefined);
  const settings = resolveBranchSummarySettings({ agentDir: input.agentDir, cwd: input.cwd, trustProject: true }).settings;
  return summaryAttempts(flags.preset, Boolean(config?.defaultPreset), input.signal, async (choice: SummarizerChoice, warnings: string[]) => {
    const made = await buildBranchSummaryText({
      piVersion: input.piVersion,
      agentDir: input.agentDir,
      pathEntries: input.pathEntries,
      entries: input.entries,
      instructions: { customInstructions: flags.focus, replaceInstructions: input.replaceInstructions },
      cwd: input.cwd,
      trustProject: true,
      settings,
      summarizer: { ...choice, runtimeApiKeys: input.runtimeApiKeys },
      allowDigest: false,
      signal: input.signal,
      timeoutMs: input.timeoutMs,
      warnings,
      detailsExtra: { writer: "pi-extension", ...(flags.preset ? { preset: flags.preset } : {}) },
    });
    return {
      value: { summary: made.summary, details: made.details, ...(input.piVersion === "1.5" && made.usage ? { usage: made.usage } : {}) },
      model: made.model,
    };
  });
}
