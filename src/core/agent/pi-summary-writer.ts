// pi's summary writer (0.73.1 and 1.5.2): compaction.js compact() and
// branch-summarization.js generateBranchSummary as pi-sessions runs them —
// pi's calls (history, and the turn prefix of a split turn), with what
// pi-sessions adds (a prompt file replacing pi's history instructions, the
// focus on the prefix call too, the authoritative files-touched lists); 0.73
// runs the two calls together with pi's maxTokens, 1.5 one after the other
// without a fixed budget and keeps their usage. Entries carry pi's file
// lists and fromHook; branch summaries pi's preamble and fromId rule.

import { BRANCH_SUMMARY_PREAMBLE, buildBranchSummaryRequest, NO_CONTENT_SUMMARY } from "../branch/index.js";
import { computeFileLists, mergeSplitTurnSummary, NO_PRIOR_HISTORY, summaryMaxTokens, type SummaryRequest } from "../compaction/index.js";
import type { ContextMessage } from "../context/context-message.js";
import { buildContextFromPath } from "../context/build-session-context.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { SessionEntry, Usage } from "../session/format/types.js";
import { estimateTokens } from "../tokens/estimate-tokens.js";
import type { AgentSemantics } from "./agent-semantics.js";
import { compactionCalls } from "./compaction-calls.js";
import { combineUsage } from "./pi-1.5/combine-usage.js";
import { allOrAbort, type CompactionText, type SummaryCallAnswer, type SummaryCaller, type SummaryWriter } from "./summary-writer.js";

type Semantics = Pick<AgentSemantics, "version" | "convertToLlm" | "serializeConversation" | "contextTokens">;

export function piSummaryWriter(semantics: Semantics): SummaryWriter {
  const version: PiVersion = semantics.version;
  return Object.freeze({
    callRules: version,
    fileLists: "pi",
    filesTouched: true,
    noContentSummary: NO_CONTENT_SUMMARY,
    branchPreamble: BRANCH_SUMMARY_PREAMBLE,
    splitTurnPlan: version === "1.5" ? " (history, then the split-turn prefix)" : " (history and split-turn prefix in parallel)",

    async compactionText(input, call: SummaryCaller): Promise<CompactionText> {
      const { prep } = input;
      const calls = compactionCalls(prep, {
        customInstructions: input.customInstructions,
        promptText: input.promptText,
        historyFilesBlock: input.historyFilesBlock,
        turnPrefixFilesBlock: input.turnPrefixFilesBlock,
        semantics,
      });
      const run = (kind: "history" | "turnPrefix", request: SummaryRequest) => (signal: AbortSignal | undefined) =>
        call(
          {
            kind,
            systemPrompt: request.systemPrompt,
            userText: request.userText,
            maxTokens: summaryMaxTokens(prep.settings.reserveTokens, request.maxTokensFactor, input.model.maxTokens),
            thinking: true,
          },
          signal,
        );
      const exact = !input.promptText && !input.historyFilesBlock && !input.turnPrefixFilesBlock && !(calls.turnPrefix && input.customInstructions);
      if (version === "1.5") {
        // pi 1.5: history first, then the turn prefix; a split turn without history keeps the previous summary.
        const history = calls.history ? await run("history", calls.history)(input.signal) : undefined;
        const prefix = calls.turnPrefix ? await run("turnPrefix", calls.turnPrefix)(input.signal) : undefined;
        const historyText = history?.text ?? prep.previousSummary ?? NO_PRIOR_HISTORY;
        const answers = [history, prefix].filter((a): a is SummaryCallAnswer => a !== undefined);
        const usage = answers.length === 2 && answers[0]!.usage && answers[1]!.usage ? (combineUsage(answers[0]!.usage as never, answers[1]!.usage as never) as unknown as Usage) : answers[0]?.usage;
        return {
          text: prefix ? mergeSplitTurnSummary(historyText, prefix.text) : historyText,
          ...(usage ? { usage } : {}),
          exact,
        };
      }
      const jobs: ((signal: AbortSignal) => Promise<SummaryCallAnswer>)[] = [];
      if (calls.history) jobs.push(run("history", calls.history));
      if (calls.turnPrefix) jobs.push(run("turnPrefix", calls.turnPrefix));
      const answers = await allOrAbort(input.signal, jobs);
      const history = calls.history ? answers[0]!.text : NO_PRIOR_HISTORY;
      const text = calls.turnPrefix ? mergeSplitTurnSummary(history, answers[answers.length - 1]!.text) : history;
      return { text, exact };
    },

    compactionEntry({ summary, prep, text, details, hook }) {
      if (hook) return { summary, details, ...(version === "1.5" && hook.usage ? { usage: hook.usage } : {}), fromHook: true };
      return { summary, details: { ...computeFileLists(prep.fileOps), ...(details as object) }, ...(text?.usage ? { usage: text.usage } : {}), fromHook: false };
    },

    async branchText(input, call) {
      const request = buildBranchSummaryRequest({
        messages: input.messages as ContextMessage[],
        customInstructions: input.customInstructions,
        replaceInstructions: input.replaceInstructions,
        semantics,
      });
      const answer = await call(
        // pi 1.5 reasons at the session's thinking level when the model reasons (#11444); 0.73 never did.
        { kind: "branch", systemPrompt: request.systemPrompt, userText: request.userText + (input.filesBlock ?? ""), maxTokens: request.maxTokens, thinking: version === "1.5" },
        input.signal,
      );
      return { text: answer.text, ...(version === "1.5" && answer.usage ? { usage: answer.usage } : {}), exact: !input.filesBlock };
    },

    branchEntry(input) {
      // pi 0.73 writes the new leaf as fromId; pi 1.5 the leaf being left.
      const fromId = (version === "1.5" ? input.oldLeafId : input.newLeafId) ?? "root";
      if (input.source === "hook" || input.source === "no-content") return { fromId, summary: input.summary, details: input.details, fromHook: input.source === "hook" };
      return { fromId, summary: input.summary, details: { ...computeFileLists(input.fileOps), ...(input.details as object) }, ...(input.text?.usage ? { usage: input.text.usage } : {}), fromHook: false };
    },

    tokensAfter(pathEntries: readonly SessionEntry[], entry: SessionEntry): number {
      // pi 1.5 distrusts usage from before the newest compaction itself (estimateProjectedContextTokens).
      if (version === "1.5") return semantics.contextTokens([...pathEntries, entry]).tokens;
      // Estimated from the text: the kept assistant messages carry the pre-compaction usage (pi distrusts it too).
      let tokens = 0;
      for (const message of buildContextFromPath([...pathEntries, entry]).messages) tokens += estimateTokens(message);
      return tokens;
    },

    entryNote: () => undefined,
  } satisfies SummaryWriter);
}
