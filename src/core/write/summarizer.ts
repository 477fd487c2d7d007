// Who writes the summary: a model (with its key) or the digest. An explicit
// model or preset must work (its errors reach the caller); without one, the
// default preset or the session's own model is used, and when none of them
// can be used (no model on the branch, no key, model unknown here) the
// digest is written instead, with a loud warning.

import { ompAgentDbFile } from "../agent/index.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { SessionEntry } from "../session/format/types.js";
import { isModelConfigError, type ModelConfigErrorCode } from "../summarize/model-config-error.js";
import type { PresetTable } from "../summarize/pi-sessions-config.js";
import { resolveSummaryModel, type ResolvedSummaryModel } from "../summarize/summary-model.js";
import type { ThinkingLevel } from "../summarize/thinking-level.js";

export interface SummarizerChoice {
  /** "provider/id": this model or an error. */
  model?: string;
  /** A preset name: this preset or an error. */
  preset?: string;
  /** No model: the digest. */
  digest?: boolean;
  /** Presets merged over pi-sessions.json's (e.g. from VS Code settings). */
  presets?: PresetTable;
  defaultPreset?: string;
  thinkingLevel?: ThinkingLevel;
  /** Allow `!command` key values in models.json/auth.json (pi does). Default: the resolver's. */
  allowCommands?: boolean;
  /** Keys by provider that win over the key files and variables (e.g. VS Code SecretStorage). */
  runtimeApiKeys?: Readonly<Record<string, string>>;
}

export type Summarizer =
  | { kind: "model"; resolved: ResolvedSummaryModel; label: string }
  | { kind: "digest"; label: "digest"; requested: boolean; reason?: string };

/** Setup problems that mean "no model available" rather than "your setup is broken". */
const DIGEST_FALLBACK_CODES: ReadonlySet<ModelConfigErrorCode> = new Set([
  "no-session-model",
  "missing-key",
  "unknown-model",
  "key-command-failed",
  "oauth-refresh-failed",
]);

export function digestFallbackWarning(reason: string): string {
  return `WARNING: no model available (${reason.replace(/\.$/, "")}). Writing a digest built from the session itself, without a model. Choose a model with --model PROVIDER/ID or --preset NAME for a real summary.`;
}

export async function chooseSummarizer(options: {
  agentDir: string;
  pathEntries: readonly SessionEntry[];
  choice: SummarizerChoice;
  warnings: string[];
  /** Whose config syntax the model's key and headers are read with. */
  piVersion?: PiVersion;
  /** An omp session's agent dir: its models.yml providers and models are known too. */
  ompAgentDir?: string;
}): Promise<Summarizer> {
  const { choice } = options;
  if (choice.digest) return { kind: "digest", label: "digest", requested: true };
  const explicit = Boolean(choice.model?.trim() || choice.preset?.trim());
  try {
    const resolved = await resolveSummaryModel({
      agentDir: options.agentDir,
      piVersion: options.piVersion,
      ...(options.ompAgentDir ? { ompAgentDir: options.ompAgentDir, ompAgentDb: ompAgentDbFile(options.ompAgentDir) } : {}),
      pathEntries: options.pathEntries,
      model: choice.model,
      preset: choice.preset,
      presets: choice.presets,
      defaultPreset: choice.defaultPreset,
      thinkingLevel: choice.thinkingLevel,
      allowCommands: choice.allowCommands,
      runtimeApiKeys: choice.runtimeApiKeys,
    });
    options.warnings.push(...resolved.warnings);
    return { kind: "model", resolved, label: resolved.label };
  } catch (error) {
    if (explicit || !isModelConfigError(error) || !DIGEST_FALLBACK_CODES.has(error.code)) throw error;
    options.warnings.push(digestFallbackWarning(error.message));
    return { kind: "digest", label: "digest", requested: false, reason: error.message };
  }
}
