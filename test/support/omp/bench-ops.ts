// Timings of omp 18.3.4's own code on a session file or folder, measured inside
// the Bun worker (bench/omp-bench.ts asks for them): wall time and the
// process's CPU time (process.cpuUsage) of each run, a full GC before each.
// omp is the baseline the omp rows of `npm run bench` are compared with, as pi
// is for pi's rows. Nothing here is used by the tests.

import { statSync } from "node:fs";
import type { Omp, OmpSessionManager } from "./omp-modules.js";

export interface OmpTimings {
  wallMs: number[];
  cpuMs: number[];
  /** What the last run produced (a count), so a run that did nothing is seen. */
  result: number;
}

/** Bun's full collection (this file runs under Bun only). */
const fullGc = (): void => (globalThis as unknown as { Bun: { gc(force: boolean): void } }).Bun.gc(true);

async function timed(runs: number, run: () => Promise<number> | number): Promise<OmpTimings> {
  const out: OmpTimings = { wallMs: [], cpuMs: [], result: 0 };
  for (let i = 0; i < runs; i++) {
    fullGc();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    out.result = await run();
    out.wallMs.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    out.cpuMs.push((c.user + c.system) / 1000);
  }
  return out;
}

/** The file must be as it was: omp's open may rewrite a file it finds broken (a benchmark session never is). */
function unchanged(file: string, run: () => Promise<number>): () => Promise<number> {
  return async () => {
    const before = statSync(file);
    const result = await run();
    const after = statSync(file);
    if (after.size !== before.size || after.mtimeMs !== before.mtimeMs) throw new Error(`${file}: omp changed the file while opening it`);
    return result;
  };
}

export interface BenchArgs {
  file: string;
  runs: number;
}

export function benchOps(omp: Omp): Record<string, (args: never) => Promise<OmpTimings>> {
  const settings = omp.DEFAULT_COMPACTION_SETTINGS;
  return {
    /** SessionManager.open (what omp does on --resume). */
    benchOpen: ({ file, runs }: BenchArgs) => timed(runs, unchanged(file, async () => (await omp.SessionManager.open(file)).getEntries().length)),
    /** SessionManager.open + buildSessionContext + convertToLlm. */
    benchContext: ({ file, runs }: BenchArgs) =>
      timed(
        runs,
        unchanged(file, async () => omp.convertToLlm((await omp.SessionManager.open(file)).buildSessionContext().messages).length),
      ),
    /** SessionManager.open + prepareCompaction on the branch (the byte estimate: no model). */
    benchOpenPrepare: ({ file, runs }: BenchArgs) =>
      timed(
        runs,
        unchanged(file, async () => {
          const sm = await omp.SessionManager.open(file);
          return omp.prepareCompaction(sm.getBranch(), settings, null, new omp.Tokenizer(null))?.messagesToSummarize.length ?? 0;
        }),
      ),
    /** prepareCompaction alone, the session already open. */
    benchPrepare: async ({ file, runs }: BenchArgs) => {
      const branch = (await omp.SessionManager.open(file)).getBranch();
      return timed(runs, () => omp.prepareCompaction(branch, settings, null, new omp.Tokenizer(null))?.messagesToSummarize.length ?? 1);
    },
    /** appendCompaction + flush on each copy, opened first (not timed): one run per copy. */
    benchAppend: async ({ copies, firstKeptEntryId }: { copies: string[]; firstKeptEntryId: string }) => {
      const opened: OmpSessionManager[] = [];
      for (const copy of copies) opened.push(await omp.SessionManager.open(copy));
      let i = 0;
      return timed(copies.length, async () => {
        const sm = opened[i++]!;
        sm.appendCompaction("## Goal\nBenchmark.\n", "benchmark", firstKeptEntryId, 1000, { method: "soft", details: { readFiles: [], modifiedFiles: [] } });
        await sm.flush();
        return sm.getEntries().length;
      });
    },
    /** SessionManager.list(cwd, dir): what /resume lists for the folder. */
    benchList: ({ dir, runs }: { dir: string; runs: number }) => timed(runs, async () => (await omp.SessionManager.list("/", dir)).length),
  };
}
