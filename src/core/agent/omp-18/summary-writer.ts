// omp 18.3.4's summary writer: a manual soft compaction (agent-core compact())
// and a branch summary (generateBranchSummary) as omp makes them — its system
// prompt and prompt files, its transcript dialect for the summary model, its
// output budgets and merge, the short summary of the kept part, a previous
// snapcompact archive's text merged into the previous summary, folding when
// the conversation is over the summarizer's input budget, and its entries:
// `method: "soft"`, `shortSummary`, `details: {readFiles, modifiedFiles}`, the
// `<files>` block, `fromExtension: false` — or `fromExtension: true` (omp then
// does not carry the file lists into its next compaction) whenever the calls
// were not exactly omp's (a pi-sessions prompt file, the digest, a reasoning
// level omp would clamp by its own model catalog, a conversation so long that
// omp's native tokenizer decides how it is folded, a previous OpenAI remote
// compaction omp would skip or replay).

import type { CompactionPreparation } from "../../compaction/prepare-compaction.js";
import type { FileOperationLists } from "../../compaction/file-ops.js";
import type { SessionEntry } from "../../session/format/types.js";
import type { AgentSemantics } from "../agent-semantics.js";
import { allOrAbort, type CompactionText, type SummaryCall, type SummaryCaller, type SummaryModelFacts, type SummaryWriter } from "../summary-writer.js";
import { upsertOmpFileOperations } from "./files-block.js";
import type { OmpMessage } from "./messages.js";
import { preferredDialect } from "./model-dialect.js";
import { computeFileLists, hasNativeReplay, ompPrepareCompaction } from "./prepare-compaction.js";
import { archiveSourceText, getPreservedArchive } from "./snapcompact-archive.js";
import {
  OMP_BRANCH_SUMMARY_PREAMBLE,
  OMP_BRANCH_SUMMARY_PROMPT,
  OMP_COMPACTION_SHORT_SUMMARY_PROMPT,
  OMP_COMPACTION_SUMMARY_PROMPT,
  OMP_COMPACTION_TURN_PREFIX_PROMPT,
  OMP_COMPACTION_UPDATE_PROMPT,
  OMP_SUMMARIZATION_SYSTEM_PROMPT,
  snapcompactArchivePrompt,
} from "./summary-prompts.js";
import { escapeSummaryBoundaryTags, summaryTranscript } from "./summary-transcript.js";

export { OMP_BRANCH_SUMMARY_PREAMBLE };

/** DEFAULT_RESERVE_TOKENS = MAX_SUMMARY_TOKENS. */
const OMP_RESERVE_TOKENS = 16384;
const MAX_SUMMARY_TOKENS = 16384;
/** The window assumed for a model that states none (compaction.ts). */
const DEFAULT_WINDOW = 200_000;
const NO_PRIOR_HISTORY = "No prior history.";
const BRANCH_MAX_TOKENS = 2048;

export interface OmpWriterSemantics extends Pick<AgentSemantics, "convertToLlm" | "contextTokens" | "buildSessionContext"> {
  asLoaded(path: readonly SessionEntry[]): OmpMessage[];
}

/** A conversation as omp serializes it for this model (in the transcript dialect of its family). */
function transcriptFor(messages: readonly OmpMessage[], model: SummaryModelFacts): { text: string; exact: boolean } {
  return { text: summaryTranscript(messages, preferredDialect(model.id)), exact: true };
}

/** The summarizer's input budget (compaction.ts summaryInputBudget). */
function inputBudget(model: SummaryModelFacts, maxTokens: number): number {
  const window = model.contextWindow > 0 ? model.contextWindow : DEFAULT_WINDOW;
  const floor = Math.min(MAX_SUMMARY_TOKENS, Math.max(1024, Math.floor(window / 8)));
  return Math.max(floor, Math.floor(window * 0.8) - maxTokens - MAX_SUMMARY_TOKENS);
}

const utf8Bytes = (text: string): number => Buffer.byteLength(text, "utf-8");
/** omp's approximate count without a native tokenizer: ⌈bytes / 4⌉. */
const approxTokens = (text: string): number => (utf8Bytes(text) + 3) >> 2;

interface Chunk {
  text: string;
  budget: number;
}

/**
 * The conversation in windows under the input budget (compaction.ts
 * generateSummary): one piece when its UTF-8 bytes fit (omp's upper bound).
 * Over that, omp counts with its native BPE tokenizer, which we estimate at
 * ⌈bytes/4⌉: one piece when that fits — certain while bytes ≤ 2 × budget (no
 * text a session holds averages under 2 bytes a token) — else messages
 * grouped greedily, each window cut to the budget if one message alone is
 * over it, which omp's own tokenizer may cut elsewhere (not exact).
 */
function chunksOf(llm: readonly OmpMessage[], model: SummaryModelFacts, maxTokens: number): { chunks: Chunk[]; exact: boolean } {
  const budget = inputBudget(model, maxTokens);
  const whole = transcriptFor(llm, model);
  if (utf8Bytes(whole.text) <= budget) return { chunks: [{ text: whole.text, budget }], exact: whole.exact };
  if (approxTokens(whole.text) <= budget) return { chunks: [{ text: whole.text, budget }], exact: whole.exact && utf8Bytes(whole.text) <= 2 * budget };
  const groups: OmpMessage[][] = [];
  let current: OmpMessage[] = [];
  let tokens = 0;
  for (const message of llm) {
    const t = approxTokens(transcriptFor([message], model).text);
    if (tokens > 0 && tokens + t > budget) {
      groups.push(current);
      current = [];
      tokens = 0;
    }
    current.push(message);
    tokens += t;
  }
  if (current.length > 0) groups.push(current);
  const chunks = groups.map((group) => {
    const text = transcriptFor(group, model).text;
    const t = approxTokens(text);
    if (t <= budget) return { text, budget };
    const keep = Math.max(1024, Math.floor((text.length * budget * 0.95) / t));
    return { text: keep >= text.length ? text : `${text.slice(0, keep)}\n\n[... ${text.length - keep} more characters truncated]`, budget };
  });
  return { chunks, exact: false };
}

function previousSummaryBlock(previous: string | undefined): string {
  return previous ? `<previous-summary>\n${escapeSummaryBoundaryTags(previous)}\n</previous-summary>\n\n` : "";
}

interface CompactionParts {
  /** false when omp could pick another range: the previous compaction is an OpenAI remote one (omp skips it unless its model replays it, and then compacts remotely). */
  sameRange: boolean;
  messagesToSummarize: OmpMessage[];
  turnPrefixMessages: OmpMessage[];
  recentMessages: OmpMessage[];
  isSplitTurn: boolean;
  previousSummary?: string;
  previousPreserveData?: unknown;
}

/** omp's preparation behind the seam's (the kept messages and the previous archive are only in omp's). */
function ompParts(semantics: OmpWriterSemantics, pathEntries: readonly SessionEntry[], prep: CompactionPreparation): CompactionParts {
  const result = ompPrepareCompaction(semantics.asLoaded(pathEntries), prep.settings.keepRecentTokens);
  if (result.compactable && result.preparation.firstKeptEntryId === prep.firstKeptEntryId) return { ...result.preparation, sameRange: !hasNativeReplay(result.preparation.previousPreserveData) };
  // Another cut (a caller's own preparation): its parts, nothing kept known.
  return {
    sameRange: false,
    messagesToSummarize: prep.messagesToSummarize as OmpMessage[],
    turnPrefixMessages: prep.turnPrefixMessages as OmpMessage[],
    recentMessages: [],
    isSplitTurn: prep.isSplitTurn,
    ...(prep.previousSummary !== undefined ? { previousSummary: prep.previousSummary } : {}),
  };
}

/**
 * omp's reasoning option (compaction.ts reasoningForCompaction): off → none,
 * unset or inherit → "high"; none when the model does not reason. omp then
 * clamps it to the efforts its model catalog lists for the model (none listed:
 * no reasoning), which pi-ai's catalog does not say.
 */
function reasoningLevel(thinkingLevel: string | undefined, model: SummaryModelFacts): string | undefined {
  if (!model.reasoning || thinkingLevel === "off") return undefined;
  return thinkingLevel === undefined || thinkingLevel === "inherit" ? "high" : thinkingLevel;
}

function withFiles(summary: string, fileOps: FileOperationLists): { summary: string; readFiles: string[]; modifiedFiles: string[] } {
  const lists = computeFileLists({ read: new Set(fileOps.read), written: new Set(fileOps.written), edited: new Set(fileOps.edited) });
  return { summary: upsertOmpFileOperations(summary, lists.readFiles, lists.modifiedFiles, new Set(fileOps.read)), ...lists };
}

export function ompSummaryWriter(semantics: OmpWriterSemantics): SummaryWriter {
  return Object.freeze({
    callRules: "0.73",
    fileLists: "omp",
    filesTouched: false,
    branchPreamble: OMP_BRANCH_SUMMARY_PREAMBLE,
    noContentSummary: "No content to summarize",
    splitTurnPlan: " (history and split-turn prefix in parallel, then the short summary)",

    async compactionText(input, call: SummaryCaller): Promise<CompactionText> {
      const { prep, model } = input;
      const parts = ompParts(semantics, input.pathEntries, prep);
      const reserve = prep.settings.reserveTokens ?? OMP_RESERVE_TOKENS;
      const reasoning = reasoningLevel(semantics.buildSessionContext(input.pathEntries).thinkingLevel, model);
      const request = (kind: SummaryCall["kind"], userText: string, maxTokens: number): SummaryCall => ({
        kind,
        systemPrompt: OMP_SUMMARIZATION_SYSTEM_PROMPT,
        userText,
        maxTokens,
        thinking: reasoning !== undefined,
        ...(reasoning !== undefined ? { reasoning } : {}),
      });
      // A reasoning level: omp clamps it to the efforts its own model catalog lists (not known here), so not proven exact.
      let exact = !input.promptText && reasoning === undefined && parts.sameRange;
      const llm = (messages: readonly OmpMessage[]) => semantics.convertToLlm(messages as never) as OmpMessage[];

      // A previous snapcompact archive's text goes with the previous summary.
      const archive = getPreservedArchive(parts.previousPreserveData);
      const archiveText = archive ? archiveSourceText(archive) : undefined;
      const archivePrompt = archiveText ? snapcompactArchivePrompt(archiveText) : undefined;
      const previous = archivePrompt ? (parts.previousSummary ? `${parts.previousSummary}\n\n${archivePrompt}` : archivePrompt) : parts.previousSummary;

      const history = async (messages: readonly OmpMessage[], signal: AbortSignal | undefined): Promise<string> => {
        const maxTokens = Math.min(Math.floor(0.8 * reserve), MAX_SUMMARY_TOKENS);
        const { chunks, exact: sure } = chunksOf(llm(messages), model, maxTokens);
        if (!sure) exact = false;
        let summary = previous;
        for (const chunk of chunks) {
          let instructions = input.promptText ?? (summary ? OMP_COMPACTION_UPDATE_PROMPT : OMP_COMPACTION_SUMMARY_PROMPT);
          if (input.customInstructions) instructions = `${instructions}\n\nAdditional focus: ${input.customInstructions}`;
          const userText = `<conversation>\n${chunk.text}\n</conversation>\n\n${previousSummaryBlock(summary)}${instructions}`;
          summary = (await call(request("history", userText, maxTokens), signal)).text;
        }
        return summary ?? "";
      };
      const turnPrefix = async (messages: readonly OmpMessage[], signal: AbortSignal | undefined): Promise<string> => {
        const transcript = transcriptFor(llm(messages), model);
        if (!transcript.exact) exact = false;
        const userText = `<conversation>\n${transcript.text}\n</conversation>\n\n${OMP_COMPACTION_TURN_PREFIX_PROMPT}`;
        return (await call(request("turnPrefix", userText, Math.min(Math.floor(0.5 * reserve), MAX_SUMMARY_TOKENS)), signal)).text;
      };

      let text: string;
      if (parts.isSplitTurn && parts.turnPrefixMessages.length > 0) {
        const [h, p] = await allOrAbort(input.signal, [
          (signal) => (parts.messagesToSummarize.length > 0 || previous ? history(parts.messagesToSummarize, signal) : Promise.resolve(NO_PRIOR_HISTORY)),
          (signal) => turnPrefix(parts.turnPrefixMessages, signal),
        ]);
        text = `${h}\n\n---\n\n**Turn Context (split turn):**\n\n${p}`;
      } else if (parts.messagesToSummarize.length > 0) text = await history(parts.messagesToSummarize, input.signal);
      else text = previous ?? NO_PRIOR_HISTORY;

      // The short summary: the kept messages, with the new summary as the previous one.
      const kept = transcriptFor(llm(parts.recentMessages), model);
      if (!kept.exact) exact = false;
      const shortText = `<conversation>\n${kept.text}\n</conversation>\n\n${previousSummaryBlock(text)}${OMP_COMPACTION_SHORT_SUMMARY_PROMPT}`;
      const shortSummary = (await call(request("shortSummary", shortText, Math.min(512, Math.floor(0.2 * reserve))), input.signal)).text;
      return { text, shortSummary, exact };
    },

    compactionEntry({ summary, prep, text, details, hook }) {
      if (hook) return { summary, details, fromExtension: true };
      const files = withFiles(summary, prep.fileOps);
      const lists = { readFiles: files.readFiles, modifiedFiles: files.modifiedFiles };
      if (text?.exact) return { summary: files.summary, shortSummary: text.shortSummary, method: "soft", details: lists, fromExtension: false };
      return { summary: files.summary, ...(text?.shortSummary !== undefined ? { shortSummary: text.shortSummary } : {}), details: { ...lists, ...(details as object) }, fromExtension: true };
    },

    async branchText(input, call) {
      const llm = semantics.convertToLlm(input.messages as never) as OmpMessage[];
      const transcript = transcriptFor(llm, input.model);
      // omp's custom instructions replace its prompt (there is no "additional focus" for a branch summary).
      const instructions = input.customInstructions || OMP_BRANCH_SUMMARY_PROMPT;
      const userText = `<conversation>\n${transcript.text}\n</conversation>\n\n${instructions}`;
      const answer = await call({ kind: "branch", systemPrompt: OMP_SUMMARIZATION_SYSTEM_PROMPT, userText, maxTokens: BRANCH_MAX_TOKENS, thinking: false }, input.signal);
      return { text: answer.text, exact: transcript.exact && !input.promptFile && !input.filesBlock };
    },

    branchEntry(input) {
      const fromId = input.newLeafId ?? "root";
      if (input.source === "hook") return { fromId, summary: input.summary, details: input.details, fromExtension: true };
      if (input.source === "no-content") return { fromId, summary: input.summary, details: { readFiles: [], modifiedFiles: [] }, fromExtension: false };
      const files = withFiles(input.summary, input.fileOps);
      const lists = { readFiles: files.readFiles, modifiedFiles: files.modifiedFiles };
      const summary = files.summary || "No summary generated";
      if (input.source === "model" && input.text?.exact) return { fromId, summary, details: lists, fromExtension: false };
      return { fromId, summary, details: { ...lists, ...(input.details as object) }, fromExtension: true };
    },

    // omp's own tokensAfter counts its next system prompt and tools: not ours to write; shown as omp's count of the rebuilt context.
    tokensAfter: (pathEntries: readonly SessionEntry[], entry: SessionEntry) => semantics.contextTokens([...pathEntries, entry]).tokens,

    entryNote: (entry, kind) =>
      entry.fromExtension === false
        ? `omp: written as omp's own ${kind} (omp's prompts and calls${kind === "compaction" ? ", method soft" : ""})`
        : `omp: marked fromExtension (not made exactly as omp makes it; omp leaves its file lists out of its next compaction)`,
  } satisfies SummaryWriter);
}
