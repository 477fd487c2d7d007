// What pi's own session_before_compact (manual /compact, threshold and
// overflow auto-compaction) gets from our core: the summary by the default
// preset's model (or a `-p NAME` preset, or the session's model), the prompt
// file, the grounded files-touched block, bounded, on pi's own
// firstKeptEntryId / tokensBefore, with details saying which model and
// thinking level ran. Failure policy: a preset that fails falls back to the
// session's model; if that fails too, pi's stock compaction runs (a
// compaction is never lost); an abort is quiet.

import { semanticsFor } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { CompactionEntry, SessionEntry, Usage } from "../session/format/types.js";
import type { CompactionSettings } from "../settings/index.js";
import { readPiSessionsConfig } from "../summarize/pi-sessions-config.js";
import { buildCompactionDraft, contextTokensAfter, thresholdWarning, type SummarizerChoice } from "../write/index.js";
import { parsePresetFlags } from "./preset-flags.js";
import { summaryAttempts, type PiHookOutcome } from "./attempts.js";

export interface PiCompactionInput {
  piVersion: PiVersion;
  agentDir: string;
  /** pi's event.branchEntries: the branch root→leaf. */
  branchEntries: readonly SessionEntry[];
  /** pi's event.preparation (the fields we use). */
  preparation: { firstKeptEntryId: string; tokensBefore: number; settings: CompactionSettings };
  customInstructions?: string;
  /** pi 1.5: "manual" | "threshold" | "overflow". */
  reason?: string;
  /** The session's cwd (files-touched paths relative to it). */
  cwd: string;
  signal?: AbortSignal;
  /** The session model's context window (pi's threshold check). */
  contextWindow?: number;
  /** Keys pi itself resolved, by provider. */
  runtimeApiKeys?: Record<string, string>;
  timeoutMs?: number;
}

export interface PiCompaction {
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details: unknown;
  usage?: Usage;
}

export async function compactionForPi(input: PiCompactionInput): Promise<PiHookOutcome<PiCompaction>> {
  const flags = parsePresetFlags(input.customInstructions);
  const semantics = semanticsFor(input.piVersion);
  const plan = semantics.planCompaction(input.branchEntries, input.preparation.settings);
  if (!plan.compactable) return { kind: "stock", reasons: [`nothing to compact here (${plan.reason})`], warnings: [] };
  const ours = plan.preparation;
  if (ours.firstKeptEntryId !== input.preparation.firstKeptEntryId) {
    return { kind: "stock", reasons: [`pi cuts at ${input.preparation.firstKeptEntryId}, pi-sessions at ${ours.firstKeptEntryId}: pi's own compaction runs`], warnings: [] };
  }
  const prep = { ...ours, tokensBefore: input.preparation.tokensBefore };
  await new Promise<void>((resolve) => setImmediate(resolve));
  const leaf = input.branchEntries[input.branchEntries.length - 1];

  const config = await readPiSessionsConfig(input.agentDir).catch(() => undefined);
  return summaryAttempts(flags.preset, Boolean(config?.defaultPreset), input.signal, async (choice: SummarizerChoice, warnings: string[]) => {
    const made = await buildCompactionDraft({
      piVersion: input.piVersion,
      agentDir: input.agentDir,
      pathEntries: input.branchEntries,
      prep,
      cwd: input.cwd,
      trustProject: true,
      summarizer: { ...choice, runtimeApiKeys: input.runtimeApiKeys },
      allowDigest: false,
      instructions: flags.focus,
      signal: input.signal,
      timeoutMs: input.timeoutMs,
      warnings,
      detailsExtra: { writer: "pi-extension", ...(input.reason ? { reason: input.reason } : {}), ...(flags.preset ? { preset: flags.preset } : {}) },
    });
    const entry = { ...made.draft, id: "pi-sessions-draft", parentId: leaf?.id ?? null, timestamp: new Date().toISOString() } as CompactionEntry;
    const after = contextTokensAfter(input.branchEntries, entry, semantics);
    const over = thresholdWarning(after, input.contextWindow, input.preparation.settings.reserveTokens);
    if (over) throw new StillOverThreshold(over);
    const { draft } = made;
    return {
      value: {
        summary: draft.summary,
        firstKeptEntryId: input.preparation.firstKeptEntryId,
        tokensBefore: input.preparation.tokensBefore,
        details: draft.details,
        ...(input.piVersion === "1.5" && draft.usage ? { usage: draft.usage } : {}),
      },
      model: made.model,
    };
  });
}

/** Our result would not free enough of the context: pi's stock flow decides (not a model failure: no fallback). */
export class StillOverThreshold extends Error {
  readonly final = true;
}
