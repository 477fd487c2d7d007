// omp 18.3.4's context token rule for live facts and the catalogue: an entry's
// part (for the tracker's bookkeeping), where a recount may start on a branch
// (`ompRecountStart`), and the count kept over appends (OmpIncrementalUsage).

import type { BranchTokenView, ContextTokenRule } from "../../tokens/context-token-rule.js";
import type { SessionEntry } from "../../session/format/types.js";
import { ompBuildSessionContext, type OmpContextOptions } from "./build-session-context.js";
import { isPlainCompaction } from "./context-path.js";
import { ompContextUsage } from "./context-usage.js";
import { OmpIncrementalUsage, type OmpWindowLimits } from "./incremental-context-usage.js";
import type { OmpMessage } from "./messages.js";
import { assistantUsage, calculateContextTokens } from "./prepare-compaction.js";
import { countMessagesTokens } from "./tokenizer.js";

/**
 * Where ompContextUsage may start on a branch and give what it gives on the
 * whole branch: at the latest `/clear` when it is the latest boundary (omp's
 * context is what follows it); after a plain compaction (no provider replay,
 * no context rollover) at its kept range's first entry, or earlier at the
 * first `custom` entry after the latest `/clear` (omp's context notebook is
 * the newest one, looked for back to the `/clear`); else the whole branch.
 */
export function ompRecountStart(view: BranchTokenView): number {
  let reset = -1;
  let compaction = -1;
  for (let p = view.length - 1; p >= 0 && reset < 0; p--) {
    const type = view.typeAt(p);
    if (type === "reset_boundary") reset = p;
    else if (type === "compaction" && compaction < 0) compaction = p;
  }
  if (reset > compaction) return reset;
  if (compaction < 0) return 0;
  const keepFromId = view.tokensAt(compaction).reset?.keepFromId;
  if (keepFromId === undefined) return 0;
  const kept = view.positionOf(keepFromId);
  let start = kept >= 0 && kept < compaction ? kept : compaction;
  for (let p = reset + 1; p < start; p++) {
    if (view.typeAt(p) === "custom") {
      start = p;
      break;
    }
  }
  return start;
}

/**
 * The token rule live views use for omp sessions: counted from the path from
 * `ompRecountStart`, then kept over appends (`OmpIncrementalUsage`); a rewrite
 * in place or a branch switch counts again.
 */
export function ompContextTokenRule(options: OmpContextOptions, asLoaded: (entry: SessionEntry) => OmpMessage, limits?: OmpWindowLimits): ContextTokenRule {
  return {
    name: "omp-18",
    isUsageCandidate: (meta) => meta.type === "message" && meta.role === "assistant",
    isResetCandidate: (meta) => meta.type === "compaction" || meta.type === "reset_boundary",
    messagesFromMeta: () => undefined,
    entryTokens(entry) {
      const e = asLoaded(entry);
      if (e.type === "reset_boundary") return { messages: 0, estimate: 0, reset: { estimate: 0 } };
      if (e.type === "compaction") {
        // The kept range's first entry, for a compaction whose context is its summary, that range and what follows.
        return { messages: 0, estimate: 0, reset: isPlainCompaction(e) ? { estimate: 0, keepFromId: e.firstKeptEntryId } : { estimate: 0 } };
      }
      const context = ompBuildSessionContext([e], options);
      const usage = e.type === "message" ? assistantUsage(e.message) : undefined;
      return {
        messages: context.messages.length,
        estimate: countMessagesTokens(context.messages, { excludeEncryptedReasoning: true }),
        ...(usage ? { usage: calculateContextTokens(usage) } : {}),
      };
    },
    usage: () => undefined,
    usageOfPath: (path) => ompContextUsage(path.map(asLoaded), options),
    incremental: (tail) => new OmpIncrementalUsage(tail, asLoaded, options, limits),
    recountStart: ompRecountStart,
  };
}
