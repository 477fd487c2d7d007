// One summary call through pi-ai's completeSimple, as pi's compaction makes
// it (compaction.js generateSummary): the system prompt, one user message
// with the prompt text, reasoning only when the model reasons and a thinking
// level other than "off" is asked for. Two differences: maxTokens is clamped
// to the model's output limit (pi bug #4390), and every failure becomes a
// ModelCallError with a kind and a message free of the key.
// pi 1.5's call rules (completeSummarization), on pi-ai 0.73.1: no fixed
// maxTokens (the model's limit clamped to the window, clamp-max-tokens.ts),
// cacheRetention "none", a fresh uuidv7 session id, and a tool call in the
// answer is a failure. A "length" stop is a failure in both.

import type { AssistantMessage, Context, SimpleStreamOptions, Usage } from "@mariozechner/pi-ai";
import type { PiVersion } from "../session/format/pi-version.js";
import { clampMaxTokensToContext, summaryInputTokens } from "./clamp-max-tokens.js";
import { withSummaryCallRules } from "./call-rules.js";
import { uuidv7 } from "./uuidv7.js";
import { describeModelCallFailure, classifyProviderError, ModelCallError } from "./model-call-error.js";
import type { ModelCallErrorKind } from "./model-call-error.js";
import { modelLabel } from "./model-reference.js";
import type { SummaryModel } from "./model-registry.js";
import { loadPiAi } from "./pi-ai-loader.js";
import { redactSecrets } from "./redact.js";
import type { ThinkingLevel } from "./thinking-level.js";

export interface CompleteSummaryOptions {
  model: SummaryModel;
  apiKey: string;
  headers?: Record<string, string>;
  systemPrompt: string;
  userText: string;
  /** Whose call rules apply (default "0.73"). */
  piVersion?: PiVersion;
  /** 0.73: the wanted output budget, clamped to model.maxTokens. 1.5: ignored (the model's limit clamped to the window). */
  maxTokens?: number;
  thinkingLevel?: ThinkingLevel;
  signal?: AbortSignal;
  /** Deadline for the whole call, retries included. */
  timeoutMs?: number;
  /** Client-side retries on 429/5xx/connection errors (SDK default 2, as in pi). */
  maxRetries?: number;
}

/** maxTokens as sent: at most the model's output limit (when it has one), at least 1. */
export function clampMaxTokens(wanted: number, model: Pick<SummaryModel, "maxTokens">): number {
  const floor = Math.max(1, Math.floor(wanted));
  return model.maxTokens > 0 ? Math.min(floor, Math.floor(model.maxTokens)) : floor;
}

/** pi's rule (compaction.js): reasoning only for a reasoning model with a level other than "off". */
export function reasoningFor(
  model: Pick<SummaryModel, "reasoning">,
  thinkingLevel: ThinkingLevel | undefined,
): Exclude<ThinkingLevel, "off"> | undefined {
  return model.reasoning && thinkingLevel && thinkingLevel !== "off" ? thinkingLevel : undefined;
}

function textOf(message: AssistantMessage): string {
  return message.content
    .filter((c): c is Extract<AssistantMessage["content"][number], { type: "text" }> => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

export interface SummaryAnswer {
  text: string;
  /** The provider's usage for the call (pi 1.5 stores it on the entry). */
  usage: Usage;
}

/** The text of the answer (see completeSummaryWithUsage). */
export async function completeSummary(options: CompleteSummaryOptions): Promise<string> {
  return (await completeSummaryWithUsage(options)).text;
}

/** maxTokens as sent under each version's rules. */
export function summaryCallMaxTokens(options: Pick<CompleteSummaryOptions, "piVersion" | "maxTokens" | "model" | "systemPrompt" | "userText">): number {
  if (options.piVersion === "1.5") {
    return clampMaxTokensToContext(options.model, summaryInputTokens(options.systemPrompt, options.userText), options.model.maxTokens);
  }
  return clampMaxTokens(options.maxTokens ?? options.model.maxTokens, options.model);
}

export async function completeSummaryWithUsage(options: CompleteSummaryOptions): Promise<SummaryAnswer> {
  const label = modelLabel(options.model);
  const secrets = [options.apiKey, ...Object.values(options.headers ?? {})];
  const fail = (kind: ModelCallErrorKind, detail?: string, extra: { status?: number; partialText?: string } = {}): never => {
    const safeDetail = detail === undefined ? undefined : redactSecrets(detail, secrets);
    throw new ModelCallError(kind, describeModelCallFailure(label, kind, safeDetail), extra);
  };

  if (options.signal?.aborted) fail("aborted");
  if (!options.apiKey) fail("auth", "no API key was given");

  const controller = new AbortController();
  let timedOut = false;
  const onAbort = (): void => controller.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const timer =
    options.timeoutMs !== undefined
      ? setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, options.timeoutMs)
      : undefined;

  try {
    const piAi = await loadPiAi();
    const context: Context = {
      systemPrompt: options.systemPrompt,
      messages: [{ role: "user", content: [{ type: "text", text: options.userText }], timestamp: Date.now() }],
    };
    const maxTokens = summaryCallMaxTokens(options);
    const reasoning = reasoningFor(options.model, options.thinkingLevel);
    const callOptions: SimpleStreamOptions = {
      maxTokens,
      signal: controller.signal,
      apiKey: options.apiKey,
      headers: options.headers,
      ...(reasoning ? { reasoning } : {}),
      ...(options.piVersion === "1.5" ? { cacheRetention: "none" as const, sessionId: uuidv7() } : {}),
      ...(options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    };

    let response: AssistantMessage;
    try {
      response = await piAi.completeSimple(withSummaryCallRules(options.model), context, callOptions);
    } catch (error) {
      if (timedOut) return fail("timeout", `no complete answer within ${options.timeoutMs} ms`);
      if (options.signal?.aborted) return fail("aborted");
      const message = error instanceof Error ? error.message : String(error);
      const { kind, status } = classifyProviderError(message);
      return fail(kind, message, { status });
    }

    if (response.stopReason === "aborted" || (response.stopReason === "error" && controller.signal.aborted)) {
      if (timedOut) return fail("timeout", `no complete answer within ${options.timeoutMs} ms`);
      return fail("aborted");
    }
    if (response.stopReason === "error") {
      const message = response.errorMessage ?? "unknown error";
      const { kind, status } = classifyProviderError(message);
      return fail(kind, message, { status });
    }
    const text = textOf(response);
    if (response.stopReason === "length") {
      return fail("truncated", `maxTokens ${maxTokens}`, { partialText: text });
    }
    if (options.piVersion === "1.5" && response.content.some((c) => c.type === "toolCall")) return fail("tool-call");
    if (text.trim() === "") return fail("empty");
    return { text, usage: response.usage };
  } finally {
    if (timer) clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}
