// npm run bench (BENCH_ONLY=pi-hook): what the pi extension does on pi's event
// loop in session_before_compact, before and after the model call, on the
// 100 MB session's branch held in memory (pi hands the entries over parsed):
// our preparation, the spans, the grounded manifests (history, prefix, whole
// branch: bash through the real parser), the bounded summary and the context
// estimate after it. Best of `runs`; the parser's cold start apart.
import { performance } from "node:perf_hooks";
import { semanticsFor } from "../src/core/agent/index.js";
import { initFilesTouched } from "../src/core/files-touched/index.js";
import type { SessionEntry } from "../src/core/session/format/types.js";
import { boundSummary, contextTokensAfter } from "../src/core/write/index.js";
import { compactionSpans } from "../src/core/agent/compaction-calls.js";
import { filesTouchedOf } from "../src/core/write/files-for-summary.js";

export async function piHookBench(path: readonly SessionEntry[], runs: number): Promise<void> {
  console.log("\npi extension: session_before_compact work on pi's event loop (100 MB branch in memory)");
  const cold = performance.now();
  await initFilesTouched();
  console.log(`  parser cold start (once per pi process): ${(performance.now() - cold).toFixed(1)} ms`);
  const settings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };
  const cwd = "/";
  const best = { plan: Infinity, manifests: Infinity, bound: Infinity, after: Infinity, total: Infinity };
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const semantics = semanticsFor("0.73");
    const plan = semantics.planCompaction(path, settings);
    if (!plan.compactable) throw new Error(`not compactable: ${plan.reason}`);
    const t1 = performance.now();
    const spans = compactionSpans(path, plan.preparation, "0.73");
    await filesTouchedOf(spans.history, cwd);
    await filesTouchedOf(spans.turnPrefix, cwd);
    const branch = await filesTouchedOf(path, cwd);
    const t2 = performance.now();
    const bounded = boundSummary({ text: "## Goal\nsummary", readFiles: [], modifiedFiles: [], manifest: branch, budgetTokens: 16320 });
    const t3 = performance.now();
    const entry = { type: "compaction", id: "x", parentId: path[path.length - 1]!.id, timestamp: new Date().toISOString(), summary: bounded.summary, firstKeptEntryId: plan.preparation.firstKeptEntryId, tokensBefore: 0 } as SessionEntry;
    contextTokensAfter(path, entry, semantics);
    const t4 = performance.now();
    best.plan = Math.min(best.plan, t1 - t0);
    best.manifests = Math.min(best.manifests, t2 - t1);
    best.bound = Math.min(best.bound, t3 - t2);
    best.after = Math.min(best.after, t4 - t3);
    best.total = Math.min(best.total, t4 - t0);
  }
  console.log(`  preparation (ours, to check pi's cut):  ${best.plan.toFixed(1)} ms`);
  console.log(`  manifests (history, prefix, branch):    ${best.manifests.toFixed(1)} ms`);
  console.log(`  bounded summary:                        ${best.bound.toFixed(1)} ms`);
  console.log(`  context after:                          ${best.after.toFixed(1)} ms`);
  console.log(`  total (target well under 1,000 ms):     ${best.total.toFixed(1)} ms`);
}
