// omp 18.3.4's summary writer. Interim: pi 0.73's calls on omp's transcript,
// entries marked fromExtension (the summary is not omp's own), omp's <files>
// block at the end, omp's branch-summary preamble and fromId rule.

import type { FileOperationLists } from "../../compaction/file-ops.js";
import type { SessionEntry } from "../../session/format/types.js";
import type { AgentSemantics } from "../agent-semantics.js";
import { piSummaryWriter } from "../pi-summary-writer.js";
import type { SummaryWriter } from "../summary-writer.js";
import { upsertOmpFileOperations } from "./files-block.js";
import { computeFileLists } from "./prepare-compaction.js";

/** omp's branch-summary-preamble.md as rendered: its own text comes right after it, without a separator. */
export const OMP_BRANCH_SUMMARY_PREAMBLE = "User explored another conversation branch, then returned here.\nExploration summary:";

function withFiles(summary: string, fileOps: FileOperationLists): { summary: string; readFiles: string[]; modifiedFiles: string[] } {
  const lists = computeFileLists({ read: new Set(fileOps.read), written: new Set(fileOps.written), edited: new Set(fileOps.edited) });
  return { summary: upsertOmpFileOperations(summary, lists.readFiles, lists.modifiedFiles, new Set(fileOps.read)), ...lists };
}

export function ompSummaryWriter(semantics: Pick<AgentSemantics, "convertToLlm" | "serializeConversation" | "contextTokens">): SummaryWriter {
  const pi = piSummaryWriter({ version: "0.73", ...semantics });
  return Object.freeze({
    ...pi,
    fileLists: "omp",
    filesTouched: true,
    branchPreamble: OMP_BRANCH_SUMMARY_PREAMBLE,
    compactionEntry({ summary, prep, details, hook }) {
      if (hook) return { summary, details, fromExtension: true };
      const files = withFiles(summary, prep.fileOps);
      return { summary: files.summary, details: { readFiles: files.readFiles, modifiedFiles: files.modifiedFiles, ...(details as object) }, fromExtension: true };
    },
    branchEntry(input) {
      if (input.source === "hook" || input.source === "no-content") return { fromId: input.newLeafId ?? "root", summary: input.summary, details: input.details, fromExtension: true };
      const files = withFiles(input.summary, input.fileOps);
      return { fromId: input.newLeafId ?? "root", summary: files.summary, details: { readFiles: files.readFiles, modifiedFiles: files.modifiedFiles, ...(input.details as object) }, fromExtension: true };
    },
    tokensAfter: (pathEntries: readonly SessionEntry[], entry: SessionEntry) => semantics.contextTokens([...pathEntries, entry]).tokens,
  } satisfies SummaryWriter);
}
