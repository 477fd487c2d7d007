// What the writing commands (compact, branch-summary, navigate, migrate)
// share: the model flags, SIGINT → abort, and how core errors become exit
// codes (1 bad input or setup, 2 the model call failed, 3 refused to write).
import { isWriteRefusedError } from "../../core/session/append/append";
import { isModelCallError } from "../../core/summarize/model-call-error";
import { isModelConfigError } from "../../core/summarize/model-config-error";
import { InvalidSettingError } from "../../core/settings";
import { RunInputError, type SummarizerChoice } from "../../core/write";
import { boolFlag, intFlag, stringFlag, type FlagSpec } from "../args";
import type { CommandContext } from "../command";
import { CliError, EXIT_BAD_INPUT, EXIT_MODEL_FAILED, EXIT_REFUSED, UsageError } from "../errors";

export const MODEL_FLAGS: Record<string, FlagSpec> = {
  model: { value: true },
  preset: { value: true },
  digest: { value: false },
  instructions: { value: true },
  timeout: { value: true },
  "max-retries": { value: true },
  "no-manifest": { value: false },
  "dry-run": { value: false },
};

export const MODEL_FLAGS_USAGE = "[--model PROVIDER/ID | --preset NAME | --digest] [--instructions TEXT] [--timeout SECONDS] [--no-manifest] [--dry-run]";

const DEFAULT_TIMEOUT_SECONDS = 300;

export function summarizerChoice(ctx: CommandContext): SummarizerChoice {
  const model = stringFlag(ctx.args, "model");
  const preset = stringFlag(ctx.args, "preset");
  const digest = boolFlag(ctx.args, "digest");
  if ([model !== undefined, preset !== undefined, digest].filter(Boolean).length > 1) {
    throw new UsageError("use only one of --model, --preset and --digest");
  }
  if (model !== undefined && model.trim() === "") throw new UsageError("--model needs PROVIDER/ID");
  if (preset !== undefined && preset.trim() === "") throw new UsageError("--preset needs a name");
  return { ...(model !== undefined ? { model } : {}), ...(preset !== undefined ? { preset } : {}), ...(digest ? { digest } : {}) };
}

export function modelCallSettings(ctx: CommandContext): { timeoutMs: number; maxRetries?: number } {
  const seconds = intFlag(ctx.args, "timeout") ?? DEFAULT_TIMEOUT_SECONDS;
  if (seconds === 0) throw new UsageError("--timeout must be at least 1 second");
  const maxRetries = intFlag(ctx.args, "max-retries");
  return { timeoutMs: seconds * 1000, ...(maxRetries !== undefined ? { maxRetries } : {}) };
}

/** A core error as the CLI reports it. */
export function toCliError(error: unknown): unknown {
  if (error instanceof CliError) return error;
  if (isWriteRefusedError(error)) return new CliError(`refused to write: ${error.message}`, EXIT_REFUSED);
  if (isModelCallError(error)) return new CliError(`${error.message} The session file was not changed.`, EXIT_MODEL_FAILED);
  if (isModelConfigError(error)) return new CliError(error.message, EXIT_BAD_INPUT);
  if (error instanceof RunInputError) return new CliError(error.message, EXIT_BAD_INPUT);
  if (error instanceof InvalidSettingError) return new CliError(`${error.file ?? "settings"}: ${error.message}`, EXIT_BAD_INPUT);
  return error;
}

/** Runs `work` with an AbortSignal that Ctrl-C fires (the file stays unchanged: the model call is cancelled). */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.once("SIGINT", onSigint);
  try {
    return await work(controller.signal);
  } catch (error) {
    throw toCliError(error);
  } finally {
    process.removeListener("SIGINT", onSigint);
  }
}
