// omp 18.3.4's branch preparation (agent-core compaction/branch-summarization.ts):
// the entries a `/tree` move leaves (old leaf back to the deepest common
// ancestor, exclusive), and prepareBranchEntries — newest first under a token
// budget, tool results counted cut to 2000 characters, useless results left
// out, compactions included as summaries, file lists from tool calls and from
// earlier branch summaries omp wrote itself.

import { createBranchSummaryMessage, createCompactionSummaryMessage, createCustomMessage, type OmpMessage } from "./messages.js";
import { createFileOps, extractFileOpsFromMessage, stripReadSelector, type OmpFileOps } from "./prepare-compaction.js";
import { countMessageTokens } from "./tokenizer.js";

export interface OmpBranchPreparation {
  messages: OmpMessage[];
  fileOps: OmpFileOps;
  totalTokens: number;
}

/** collectEntriesForBranchSummary over a lookup by id. */
export function collectEntriesForBranchSummary(
  byId: (id: string) => OmpMessage | undefined,
  pathTo: (id: string) => readonly OmpMessage[],
  oldLeafId: string | null,
  targetId: string,
): { entries: OmpMessage[]; commonAncestorId: string | null } {
  if (!oldLeafId) return { entries: [], commonAncestorId: null };
  const oldPath = new Set(pathTo(oldLeafId).map((e) => e.id as string));
  const targetPath = pathTo(targetId);
  let commonAncestorId: string | null = null;
  for (let i = targetPath.length - 1; i >= 0; i--) {
    if (oldPath.has(targetPath[i]!.id)) {
      commonAncestorId = targetPath[i]!.id;
      break;
    }
  }
  const entries: OmpMessage[] = [];
  const seen = new Set<string>();
  let current: string | null = oldLeafId;
  while (current && current !== commonAncestorId && !seen.has(current)) {
    seen.add(current);
    const entry = byId(current);
    if (!entry) break;
    entries.push(entry);
    current = entry.parentId;
  }
  entries.reverse();
  return { entries, commonAncestorId };
}

function branchMessageOf(entry: OmpMessage): OmpMessage | undefined {
  switch (entry.type) {
    case "message":
      if (entry.message.role === "toolResult" && entry.message.useless === true && entry.message.isError !== true) return undefined;
      return entry.message;
    case "custom_message":
      return createCustomMessage(entry.customType, entry.content, entry.display, entry.details, entry.timestamp, entry.attribution);
    case "branch_summary":
      return createBranchSummaryMessage(entry.summary, entry.fromId, entry.timestamp);
    case "compaction":
      return createCompactionSummaryMessage(entry.summary, entry.tokensBefore, entry.timestamp, { shortSummary: entry.shortSummary });
    default:
      return undefined;
  }
}

function branchTokens(message: OmpMessage): number {
  if (message.role !== "toolResult") return countMessageTokens(message);
  const text = (message.content as OmpMessage[])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("");
  if (!text) return 0;
  const cut = text.length <= 2000 ? text : `${text.slice(0, 2000)}\n\n[... ${text.length - 2000} more characters truncated]`;
  return countMessageTokens({ ...message, content: [{ type: "text", text: cut }] });
}

export function ompPrepareBranchEntries(entries: readonly OmpMessage[], tokenBudget = 0): OmpBranchPreparation {
  const messages: OmpMessage[] = [];
  const fileOps = createFileOps();
  let totalTokens = 0;
  for (const entry of entries) {
    if (entry.type === "branch_summary" && !entry.fromExtension && entry.details) {
      const details = entry.details;
      if (Array.isArray(details.readFiles)) for (const f of details.readFiles) fileOps.read.add(stripReadSelector(f));
      if (Array.isArray(details.modifiedFiles)) for (const f of details.modifiedFiles) fileOps.edited.add(f);
    }
  }
  for (let i = entries.length - 1; i >= 0; i--) {
    const entry = entries[i]!;
    const message = branchMessageOf(entry);
    if (!message) continue;
    extractFileOpsFromMessage(message, fileOps);
    const tokens = branchTokens(message);
    if (tokenBudget > 0 && totalTokens + tokens > tokenBudget) {
      if ((entry.type === "compaction" || entry.type === "branch_summary") && totalTokens < tokenBudget * 0.9) {
        messages.unshift(message);
        totalTokens += tokens;
      }
      break;
    }
    messages.unshift(message);
    totalTokens += tokens;
  }
  return { messages, fileOps, totalTokens };
}
