// A session's total tokens and cost, as pi 1.5 totals them: the usage of
// assistant messages, tool results that carry one, `usage` entries (cache
// warming) and compaction / branch-summary usage, over every entry of the file
// (all branches). Kept per session and advanced over appended entries only.
import type { EntryMeta } from "../core/session/entry-meta";
import type { LoadedSession } from "../core/session/open-session";

export interface SessionTotals {
  /** Entries (file order) already counted. */
  counted: number;
  tokens: number;
  /** In the providers' currency (USD for pi's models). */
  cost: number;
}

export const NO_TOTALS: SessionTotals = { counted: 0, tokens: 0, cost: 0 };

/** Whether an entry can carry usage (only these bodies are parsed). */
function mayCarryUsage(meta: EntryMeta): boolean {
  if (meta.type === "message") return meta.role === "assistant" || meta.role === "toolResult";
  return meta.type === "usage" || meta.type === "compaction" || meta.type === "branch_summary";
}

function usageOf(entry: unknown): { totalTokens?: unknown; cost?: { total?: unknown } } | undefined {
  const e = entry as { type?: string; usage?: unknown; message?: { usage?: unknown } };
  const usage = e.type === "message" ? e.message?.usage : e.usage;
  return typeof usage === "object" && usage !== null ? (usage as { totalTokens?: unknown; cost?: { total?: unknown } }) : undefined;
}

/** Totals after the entries `previous` has not counted yet (all of them for a re-read file). */
export function advanceTotals(session: LoadedSession, previous: SessionTotals = NO_TOTALS): SessionTotals {
  const metas = session.index.entries;
  const start = previous.counted <= metas.length ? previous.counted : 0;
  let { tokens, cost } = start === 0 ? NO_TOTALS : previous;
  for (let i = start; i < metas.length; i++) {
    const meta = metas[i]!;
    if (!mayCarryUsage(meta)) continue;
    let usage;
    try {
      // Tool results rarely carry usage (pi 1.5 only) and are the bulk of a session: look before parsing.
      if (meta.type === "message" && meta.role === "toolResult" && !session.rawLine(meta.id).includes('"usage"')) continue;
      usage = usageOf(session.entryAt(meta));
    } catch {
      continue;
    }
    if (!usage) continue;
    if (typeof usage.totalTokens === "number" && Number.isFinite(usage.totalTokens)) tokens += usage.totalTokens;
    const total = usage.cost?.total;
    if (typeof total === "number" && Number.isFinite(total)) cost += total;
  }
  return { counted: metas.length, tokens, cost };
}
