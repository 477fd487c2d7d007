// The failure policy of the pi hooks: the chosen (or default) preset first,
// then the session's own model; when both fail, pi's stock summary runs. An
// abort is quiet (pi cancels the compaction or navigation itself).

import { isModelCallError } from "../summarize/model-call-error.js";
import type { SummarizerChoice } from "../write/index.js";

export type PiHookOutcome<T> =
  | { kind: "summary"; value: T; model: string; fellBack: boolean; warnings: string[] }
  /** Let pi's own summary run; `reasons` say why (one per attempt). */
  | { kind: "stock"; reasons: string[]; warnings: string[] }
  | { kind: "aborted" };

export interface Attempt<T> {
  value: T;
  model: string;
}

function isAbort(error: unknown, signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true || (isModelCallError(error) && error.kind === "aborted");
}

export async function summaryAttempts<T>(
  preset: string | undefined,
  /** Whether pi-sessions.json names a default preset (without one, the first attempt already is the session's model). */
  hasDefaultPreset: boolean,
  signal: AbortSignal | undefined,
  run: (choice: SummarizerChoice, warnings: string[]) => Promise<Attempt<T>>,
): Promise<PiHookOutcome<T>> {
  const warnings: string[] = [];
  const reasons: string[] = [];
  const choices: SummarizerChoice[] = [preset ? { preset } : {}];
  if (preset !== "current" && (preset !== undefined || hasDefaultPreset)) choices.push({ preset: "current" });
  for (const [index, choice] of choices.entries()) {
    try {
      const attempt = await run(choice, warnings);
      return { kind: "summary", value: attempt.value, model: attempt.model, fellBack: index > 0, warnings };
    } catch (error) {
      if (isAbort(error, signal)) return { kind: "aborted" };
      const message = error instanceof Error ? error.message : String(error);
      reasons.push(`${choice.preset ? `preset "${choice.preset}"` : "the default preset"}: ${message}`);
      if ((error as { final?: boolean }).final) break;
    }
  }
  return { kind: "stock", reasons, warnings };
}
