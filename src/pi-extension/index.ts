// The pi extension: pi's own /compact, auto-compaction (threshold, overflow)
// and /tree summaries run through the pi-sessions core. A face like the CLI:
// it reads pi's events, asks src/core/pi-hooks, and answers in pi's shapes.
// Loaded by pi 0.73.1 and pi 1.5.x/1.6 (bundled to dist/pi-extension.js, CJS,
// default export = the factory pi calls). No pi import: pi's objects are read
// by shape, so one file works in both.

import { defaultAgentDir } from "../core/discovery/discover.js";
import type { SessionEntry } from "../core/session/format/types.js";
import type { PiVersion } from "../core/session/format/pi-version.js";
import { compactionForPi, treeSummaryForPi, type PiHookOutcome } from "../core/pi-hooks/index.js";
import { initFilesTouched } from "../core/files-touched/index.js";
import { EventLog } from "./event-log.js";
import { piKeys } from "./pi-keys.js";
import type { PiApi, PiContext, PiCompactEvent, PiTreeEvent } from "./pi-shapes.js";

function sessionCwd(ctx: PiContext): string {
  try {
    return ctx.sessionManager?.getHeader?.()?.cwd || ctx.cwd || process.cwd();
  } catch {
    return ctx.cwd || process.cwd();
  }
}

function report<T>(log: EventLog, ctx: PiContext, what: string, outcome: PiHookOutcome<T>): void {
  if (outcome.kind === "aborted") return log.write({ what, outcome: "aborted" });
  log.write({ what, outcome: outcome.kind, ...(outcome.kind === "summary" ? { model: outcome.model, fellBack: outcome.fellBack } : { reasons: outcome.reasons }), warnings: outcome.warnings });
  if (!ctx.hasUI) return;
  if (outcome.kind === "stock") {
    if (!outcome.reasons.every((r) => r.startsWith("nothing to"))) ctx.ui?.notify?.(`pi-sessions: pi's own ${what} runs (${outcome.reasons.join("; ")})`, "warning");
  } else if (outcome.fellBack) ctx.ui?.notify?.(`pi-sessions: ${what} written by ${outcome.model} (the preset failed: fell back to the session's model)`, "warning");
}

export default function piSessionsExtension(pi: PiApi): void {
  const log = new EventLog();
  let piVersion: PiVersion = "0.73";

  const onCompact = async (event: PiCompactEvent, ctx: PiContext) => {
    const agentDir = defaultAgentDir();
    const keys = await piKeys(ctx, agentDir, event.branchEntries as SessionEntry[]);
    const outcome = await compactionForPi({
      piVersion,
      agentDir,
      branchEntries: event.branchEntries as SessionEntry[],
      preparation: event.preparation,
      customInstructions: event.customInstructions,
      reason: event.reason,
      cwd: sessionCwd(ctx),
      signal: event.signal,
      contextWindow: ctx.model?.contextWindow,
      runtimeApiKeys: keys,
    }).catch((error: unknown) => ({ kind: "stock" as const, reasons: [error instanceof Error ? error.message : String(error)], warnings: [] }));
    report(log, ctx, "compaction", outcome);
    return outcome.kind === "summary" ? { compaction: outcome.value } : undefined;
  };

  const onTree = async (event: PiTreeEvent, ctx: PiContext) => {
    const prep = event.preparation;
    if (!prep.userWantsSummary || prep.entriesToSummarize.length === 0) return undefined;
    const agentDir = defaultAgentDir();
    const pathEntries = (prep.oldLeafId ? ctx.sessionManager?.getBranch?.(prep.oldLeafId) : undefined) ?? prep.entriesToSummarize;
    const keys = await piKeys(ctx, agentDir, pathEntries as SessionEntry[]);
    const outcome = await treeSummaryForPi({
      piVersion,
      agentDir,
      pathEntries: pathEntries as SessionEntry[],
      entries: prep.entriesToSummarize as SessionEntry[],
      customInstructions: prep.customInstructions,
      replaceInstructions: prep.replaceInstructions,
      cwd: sessionCwd(ctx),
      signal: event.signal,
      runtimeApiKeys: keys,
    }).catch((error: unknown) => ({ kind: "stock" as const, reasons: [error instanceof Error ? error.message : String(error)], warnings: [] }));
    report(log, ctx, "branch summary", outcome);
    return outcome.kind === "summary" ? { summary: outcome.value } : undefined;
  };

  // The bash parser's WebAssembly compiles in the background once pi has started, so the first
  // compaction does not pay for it (≈ 0.3 s) on pi's event loop.
  pi.on("session_start", async () => {
    setTimeout(() => void initFilesTouched().catch(() => undefined), 1000).unref?.();
  });

  // pi 1.x's pi.on returns an unsubscribe function; 0.73's returns nothing.
  const off = pi.on("session_before_compact", onCompact);
  if (typeof off === "function") piVersion = "1.5";
  pi.on("session_before_tree", onTree);
}
