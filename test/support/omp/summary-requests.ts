// The model requests omp 18.3.4's own summary functions make (runs in the Bun
// worker): agent-core compact() on omp's prepareCompaction, and
// generateBranchSummary on collectEntriesForBranchSummary, with a capturing
// `completeImpl` instead of a provider — system prompt, messages, maxTokens and
// reasoning exactly as omp hands them to its provider layer, and the result
// omp would write. Answers are `replyTo(user text)`, the same replies the
// loopback server gives our calls, so the entries can be compared too.

import { createHash } from "node:crypto";
import type { Json, Omp } from "./omp-modules.js";
import { withOpenCopy } from "./answers.js";

export interface OmpSummaryModel {
  id: string;
  contextWindow: number;
  maxTokens: number;
  reasoning: boolean;
}

export interface SummaryRequestsArgs {
  file: string;
  /** Default: the file's leaf. */
  leafId?: string;
  model: OmpSummaryModel;
  /** Compaction settings over omp's defaults. */
  settings?: Record<string, unknown>;
  focus?: string;
  thinkingLevel?: string;
  /** Ask for a branch summary to this target instead of a compaction. */
  branch?: { targetId: string; customInstructions?: string; reserveTokens?: number };
}

export interface CapturedRequest {
  systemPrompt: string[];
  messages: { role: string; text: string }[];
  maxTokens: number | undefined;
  reasoning: string | null;
}

/** The loopback server's and the worker's reply to a summary call. */
export function replyTo(userText: string): string {
  return `## Goal\nSummary ${createHash("sha256").update(userText).digest("hex").slice(0, 12)}\n\n## Next Steps\n1. Carry on`;
}

const textOf = (content: unknown): string =>
  typeof content === "string" ? content : (content as { type: string; text?: string }[]).map((p) => (p.type === "text" ? (p.text ?? "") : `[${p.type}]`)).join("");

export async function summaryRequests(omp: Omp, args: SummaryRequestsArgs): Promise<Json> {
  return withOpenCopy(omp, args.file, async (sm) => {
    if (sm instanceof Error) return { error: sm.message };
    const leaf = args.leafId ?? sm.getLeafId();
    const model = { provider: "loopback", api: "openai-completions", name: args.model.id, input: ["text"], baseUrl: "http://127.0.0.1:9", cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, compat: {}, ...args.model };
    const requests: CapturedRequest[] = [];
    const completeImpl = async (_model: unknown, context: { systemPrompt: string[]; messages: { role: string; content: unknown }[] }, options: { maxTokens?: number; reasoning?: string }) => {
      const messages = context.messages.map((m) => ({ role: m.role, text: textOf(m.content) }));
      requests.push({ systemPrompt: context.systemPrompt, messages, maxTokens: options.maxTokens, reasoning: options.reasoning ?? null });
      const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
      return { role: "assistant", content: [{ type: "text", text: replyTo(messages.at(-1)!.text) }], api: model.api, provider: model.provider, model: model.id, usage, stopReason: "stop", timestamp: Date.now() };
    };
    const signal = new AbortController().signal;
    if (args.branch) {
      const { entries } = omp.collectEntriesForBranchSummary(sm, leaf, args.branch.targetId);
      const result = await omp.generateBranchSummary(entries, {
        model,
        apiKey: "k",
        signal,
        customInstructions: args.branch.customInstructions,
        reserveTokens: args.branch.reserveTokens ?? 16384,
        convertToLlm: omp.convertToLlm,
        completeImpl,
      });
      return { requests, result };
    }
    const path = sm.getBranch(leaf ?? undefined);
    const settings = { ...omp.DEFAULT_COMPACTION_SETTINGS, ...args.settings };
    const prep = omp.prepareCompaction(path, settings, model, new omp.Tokenizer(model));
    if (!prep) return { requests, result: null };
    const result = await omp.compact(prep, model, "k", args.focus, signal, { convertToLlm: omp.convertToLlm, thinkingLevel: args.thinkingLevel, completeImpl });
    return { requests, result };
  });
}
