// The text of a branch summary for the entries of an abandoned branch, as
// pi's generateBranchSummary makes it (budgeted entries, one call, its
// prompts, per version), with the prompt file, the authoritative files list,
// pi's file lists and the grounded files-touched block of the abandoned
// entries, bounded to the summary budget. Shared by runBranchSummary (CLI,
// VS Code) and the pi extension's session_before_tree.

import { branchSummaryTokenBudget } from "../branch/index.js";
import { computeFileLists, getMessageFromEntry } from "../compaction/index.js";
import type { FileOperationLists } from "../compaction/file-ops.js";
import type { FilesTouched } from "../files-touched/index.js";
import { writerSemantics } from "../agent/index.js";
import type { BranchText } from "../agent/summary-writer.js";
import type { SessionEntry, Usage } from "../session/format/types.js";
import type { BranchSummarySettings } from "../settings/index.js";
import { buildDigest } from "../summarize/digest.js";
import { boundSummary, summaryBudget } from "./bounded-summary.js";
import { NoSummaryModelError, summaryCaller, summaryModelFacts } from "./compaction-draft.js";
import { authoritativeFilesBlock, DEFAULT_FILES_TOUCHED, filesTouchedDetails, filesTouchedOf } from "./files-for-summary.js";
import { readPromptFile, type PromptFileRef } from "./prompt-file.js";
import type { SummaryDraftOptions } from "./run-common.js";
import { chooseSummarizer } from "./summarizer.js";
import { agentConfigs } from "./run-common.js";

export interface BranchSummaryInstructions {
  customInstructions?: string;
  replaceInstructions?: boolean;
}

export interface BranchSummaryTextOptions extends SummaryDraftOptions {
  /** The abandoned entries (collectEntriesForBranchSummary). */
  entries: readonly SessionEntry[];
  instructions: BranchSummaryInstructions;
  settings?: BranchSummarySettings;
}

export interface BranchSummaryText {
  /** The summary as the agent writes it (its preamble, the text, its file lists). */
  summary: string;
  details: unknown;
  model: string;
  digest: boolean;
  usage?: Usage;
  /** The model's text (undefined: the digest or nothing to summarise). */
  text?: BranchText;
  /** The prepared branch's file operations. */
  fileOps: FileOperationLists;
}

/** A prompt file replaces pi's instructions; focus text still goes after it. Explicit replaceInstructions wins. */
function withPromptFile(instructions: BranchSummaryInstructions, promptText: string | undefined): BranchSummaryInstructions {
  if (!promptText || (instructions.replaceInstructions && instructions.customInstructions)) return instructions;
  const focus = instructions.customInstructions ? `\n\nAdditional focus: ${instructions.customInstructions}` : "";
  return { customInstructions: promptText + focus, replaceInstructions: true };
}

export async function buildBranchSummaryText(options: BranchSummaryTextOptions): Promise<BranchSummaryText> {
  const { entries, instructions, cwd, trustProject, warnings, piVersion } = options;
  const semantics = writerSemantics(options.agent ?? "pi", piVersion);
  const writer = semantics.summaryWriter;
  let settings = options.settings;
  if (!settings) settings = semantics.resolveBranchSummarySettings(semantics.settingsFrom(agentConfigs(options), cwd, trustProject)).settings;
  const pathEntries = options.pathEntries;
  const summarizer = await chooseSummarizer({ ...semantics.modelDirs(agentConfigs(options)), pathEntries, choice: options.summarizer ?? {}, warnings, piVersion });
  const contextWindow = summarizer.kind === "model" ? summarizer.resolved.model.contextWindow : undefined;
  const prepared = semantics.prepareBranchEntries(entries, branchSummaryTokenBudget(contextWindow, settings.reserveTokens));
  const configFiles = summarizer.kind === "model" ? summarizer.resolved.config.filesTouched : undefined;
  const filesOptions = { ...DEFAULT_FILES_TOUCHED, ...configFiles, ...options.filesTouched };
  if (summarizer.kind === "digest" && !summarizer.requested && options.allowDigest === false) throw new NoSummaryModelError(summarizer.reason ?? "no model available");
  const abandonedFiles: FilesTouched = await filesTouchedOf(entries, cwd);

  if (prepared.messages.length === 0) {
    // The agent writes this without calling the model (and without file blocks).
    return { summary: writer.noContentSummary, details: { readFiles: [], modifiedFiles: [] }, model: summarizer.label, digest: summarizer.kind === "digest", fileOps: prepared.fileOps };
  }
  let text: BranchText | undefined;
  let body: string;
  if (summarizer.kind === "digest") {
    options.onProgress?.({ phase: "summarize", message: "Building the digest (no model)" });
    // The digest reads every abandoned entry, tool results included (pi's budgeted list leaves them out).
    const messages = entries.map(getMessageFromEntry).filter((m): m is NonNullable<typeof m> => m !== undefined);
    body = buildDigest({ messages, files: abandonedFiles.files });
  } else {
    const promptRef = options.promptFile === undefined ? pathRef(summarizer.resolved.config.branchSummaryPromptFile) : (options.promptFile ?? undefined);
    const prompt = await readPromptFile(promptRef, trustProject, warnings);
    options.onProgress?.({ phase: "summarize", message: `Summarising the abandoned branch with ${summarizer.label}` });
    text = await writer.branchText(
      {
        messages: prepared.messages,
        model: summaryModelFacts(summarizer),
        ...withPromptFile(instructions, prompt?.text),
        ...(prompt?.text ? { promptFile: true } : {}),
        ...(writer.filesTouched ? { filesBlock: authoritativeFilesBlock(abandonedFiles) } : {}),
        signal: options.signal,
      },
      summaryCaller(summarizer, writer, options),
    );
    body = text.text;
  }
  const manifest = filesOptions.branchSummary && writer.filesTouched ? abandonedFiles : undefined;
  const piLists = writer.fileLists === "pi";
  const lists = piLists ? computeFileLists(prepared.fileOps) : { readFiles: [], modifiedFiles: [] };
  const bounded = boundSummary({
    text: writer.branchPreamble + body,
    readFiles: lists.readFiles,
    modifiedFiles: lists.modifiedFiles,
    manifest,
    budgetTokens: summaryBudget(settings.reserveTokens),
  });
  if (bounded.textCut) warnings.push("The summary text was cut to keep the summary within its budget (pi's branchSummary.reserveTokens).");
  return {
    summary: bounded.summary,
    details: {
      model: summarizer.label,
      piSessions: {
        version: 1,
        digest: summarizer.kind === "digest",
        filesTouched: manifest ? filesTouchedDetails(manifest) : null,
        ...(bounded.folded ? { folded: true } : {}),
        ...options.detailsExtra,
        ...(instructions.customInstructions && !instructions.replaceInstructions ? { instructions: instructions.customInstructions } : {}),
      },
    },
    model: summarizer.label,
    digest: summarizer.kind === "digest",
    ...(text?.usage ? { usage: text.usage } : {}),
    ...(text ? { text } : {}),
    fileOps: prepared.fileOps,
  };
}

function pathRef(path: string | undefined): PromptFileRef | undefined {
  return path ? { path, scope: "user" } : undefined;
}
