// How one agent writes a summary with a model: which calls it makes for a
// compaction and a branch summary (system prompt, user text, output budget,
// whether the thinking level goes along), how their answers merge, and which
// fields its entries carry. Pure: the model is reached through the `call`
// function the writer is given (write/ passes summarize/call-model), so the
// requests can be compared with the agent's own one by one.

import type { FileOperationLists } from "../compaction/file-ops.js";
import type { CompactionPreparation } from "../compaction/prepare-compaction.js";
import type { PiVersion } from "../session/format/pi-version.js";
import type { BranchSummaryDraft, CompactionDraft } from "../session/format/serialize-entry.js";
import type { SessionEntry, Usage } from "../session/format/types.js";

export type SummaryCallKind = "history" | "turnPrefix" | "shortSummary" | "branch";

/** One model call: a system prompt and one user message. */
export interface SummaryCall {
  kind: SummaryCallKind;
  systemPrompt: string;
  userText: string;
  /** Output tokens asked for (the model's own limit still applies); undefined: the call rules' own (pi 1.5). */
  maxTokens?: number;
  /** The session's thinking level goes along (when the model reasons). */
  thinking: boolean;
  /** The reasoning level the agent decided itself (omp), instead of the session's as the summarizer resolved it. */
  reasoning?: string;
}

export interface SummaryCallAnswer {
  text: string;
  usage?: Usage;
}

export type SummaryCaller = (call: SummaryCall, signal: AbortSignal | undefined) => Promise<SummaryCallAnswer>;

/** What a writer needs to know of the model that summarises. */
export interface SummaryModelFacts {
  id: string;
  /** Output limit (0: unknown). */
  maxTokens: number;
  contextWindow: number;
  reasoning: boolean;
}

export interface CompactionTextInput {
  /** The branch root→leaf. */
  pathEntries: readonly SessionEntry[];
  prep: CompactionPreparation;
  model: SummaryModelFacts;
  /** Focus text ("Additional focus: …"). */
  customInstructions?: string;
  /** A pi-sessions prompt file's text: replaces the agent's history instructions. */
  promptText?: string;
  /** pi-sessions' authoritative files-touched lists, appended to the history / turn-prefix calls. */
  historyFilesBlock?: string;
  turnPrefixFilesBlock?: string;
  signal?: AbortSignal;
}

export interface CompactionText {
  text: string;
  /** omp: the short "pull request" summary of the kept part. */
  shortSummary?: string;
  /** pi 1.5: the calls' usage, combined. */
  usage?: Usage;
  /** Every call was exactly the one the agent itself makes (its prompts, nothing added). */
  exact: boolean;
}

export interface CompactionEntryInput {
  /** The summary text (for "pi" file lists: already bounded with pi's lists and the manifest). */
  summary: string;
  prep: CompactionPreparation;
  /** undefined: the digest (no model). */
  text?: CompactionText;
  /** pi-sessions' details (model, thinking level, piSessions); a hook's: as it gave them. */
  details: unknown;
  /** A before_compact hook supplied the summary (and its details and usage). */
  hook?: { usage?: Usage };
}

export type CompactionEntryFields = Omit<CompactionDraft, "type" | "firstKeptEntryId" | "tokensBefore" | "systemMessage">;

export interface BranchTextInput {
  /** The budgeted messages of the abandoned branch (this agent's prepareBranchEntries). */
  messages: readonly unknown[];
  model: SummaryModelFacts;
  customInstructions?: string;
  /** The instructions replace the agent's own (pi's replaceInstructions; omp: always). */
  replaceInstructions?: boolean;
  /** The instructions are a pi-sessions prompt file's (not the agent's own). */
  promptFile?: boolean;
  /** pi-sessions' authoritative files-touched list, appended to the call. */
  filesBlock?: string;
  signal?: AbortSignal;
}

export interface BranchText {
  /** The model's answer. */
  text: string;
  usage?: Usage;
  exact: boolean;
}

export interface BranchEntryInput {
  summary: string;
  text?: BranchText;
  /** The prepared branch's file operations. */
  fileOps: FileOperationLists;
  /** pi-sessions' details; a hook's: as it gave them. */
  details: unknown;
  /** The leaf being left and the new leaf. */
  oldLeafId: string | null;
  newLeafId: string | null;
  /** Where the summary comes from: "hook" (a hook or extension gave summary and details) and "no-content" are written as given. */
  source: "model" | "digest" | "hook" | "no-content";
}

export type BranchEntryFields = Omit<BranchSummaryDraft, "type">;

export interface SummaryWriter {
  /** Whose call rules summarize/call-model applies (maxTokens, cache, session id). */
  readonly callRules: PiVersion;
  /**
   * Where a summary's file lists go: "pi" = pi's <read-files>/<modified-files>
   * and pi-sessions' files-touched manifest, bounded by the caller; "omp" = the
   * agent's own block, added by `compactionEntry` / `branchEntry`.
   */
  readonly fileLists: "pi" | "omp";
  /** pi-sessions' files-touched lists go into the prompts and its manifest into the summary (omp's exact flow: no). */
  readonly filesTouched: boolean;
  /** How a split turn's calls run, for a progress line (" (history and split-turn prefix in parallel)"). */
  readonly splitTurnPlan: string;
  /** The compaction's summary text, calling the model through `call`. */
  compactionText(input: CompactionTextInput, call: SummaryCaller): Promise<CompactionText>;
  /** The compaction entry's fields for a summary. */
  compactionEntry(input: CompactionEntryInput): CompactionEntryFields;
  /** The model's text of a branch summary (without the preamble). */
  branchText(input: BranchTextInput, call: SummaryCaller): Promise<BranchText>;
  /** What a branch summary starts with (the model's text follows). */
  readonly branchPreamble: string;
  /** Written instead of a model call when the budgeted branch has no message. */
  readonly noContentSummary: string;
  /** The branch summary entry's fields. */
  branchEntry(input: BranchEntryInput): BranchEntryFields;
  /** The context tokens after a compaction as shown to the user (pi: estimated from the rebuilt context). */
  tokensAfter(pathEntries: readonly SessionEntry[], entry: SessionEntry): number;
  /** What a user should know of a written entry's standing with the agent (omp: its own, or marked fromExtension), or undefined. */
  entryNote(entry: { fromExtension?: boolean }, kind: "compaction" | "branch summary"): string | undefined;
}

/** Runs calls together; the first failure aborts the others (pi and omp run them with Promise.all). */
export async function allOrAbort<T>(signal: AbortSignal | undefined, calls: ((signal: AbortSignal) => Promise<T>)[]): Promise<T[]> {
  const inner = new AbortController();
  const onAbort = (): void => inner.abort();
  if (signal?.aborted) inner.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.all(
      calls.map((call) =>
        call(inner.signal).catch((error: unknown) => {
          inner.abort();
          throw error;
        }),
      ),
    );
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
}
