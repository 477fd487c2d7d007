// BENCH_ONLY=open: open + index of the 100 MB session alone (skim and exact),
// wall and CPU time of each run (process.cpuUsage), against the read floor.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { IndexSnapshots } from "../src/core/session/snapshot/index-snapshot";
import { openSessionSync } from "../src/core/session/open/open-session";
import { chunkedLineCount } from "./live-bench";
import { timed, type Timing } from "./measure";

const best = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (t: Timing): string =>
  `best ${best(t.wall).toFixed(0)} ms wall / ${best(t.cpu).toFixed(0)} ms CPU (medians ${median(t.wall).toFixed(0)} / ${median(t.cpu).toFixed(0)})`;

export async function openBench(file: string, runs: number): Promise<void> {
  console.log("\nopen + index of the 100 MB session (this process; CPU = process.cpuUsage)");
  const floor = timed(runs, () => chunkedLineCount(file));
  console.log(`  floor (4 MiB buffer + count lines): ${fmt(floor)}`);
  const skim = timed(runs, () => openSessionSync(file, { skim: true }).index.size);
  console.log(`  open + index, skim:  ${fmt(skim)}   (target ≤ 150 ms)`);
  const exact = timed(runs, () => openSessionSync(file).index.size);
  console.log(`  open + index, exact: ${fmt(exact)}`);
  await snapshotBench(file, runs);
}

/** The index snapshot (core/session/snapshot/index-snapshot.ts): written after a cold read, then opened from. */
async function snapshotBench(file: string, runs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pi-sessions-bench-index-"));
  try {
    for (const skim of [true, false]) {
      let write: (() => void) | undefined;
      const store = new IndexSnapshots(dir, { defer: (w) => (write = w) });
      openSessionSync(file, { skim, snapshots: store });
      // The write's CPU (process.cpuUsage: every thread, the file written by the thread pool included).
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      write!();
      await store.flush();
      const encodeCpu = process.cpuUsage(c0);
      const encodeWall = performance.now() - w0;
      const bytes = statSync(store.fileOf(file, skim), { throwIfNoEntry: false })?.size;
      const mode = skim ? "skim" : "exact";
      console.log(`  snapshot write (${mode}): ${encodeWall.toFixed(0)} ms wall / ${((encodeCpu.user + encodeCpu.system) / 1000).toFixed(0)} ms CPU (encode, checksum, write); snapshot ${bytes === undefined ? "pending" : `${(bytes / 1024 / 1024).toFixed(1)} MB`}`);
      const warm = timed(runs, () => openSessionSync(file, { skim, snapshots: store }).index.size);
      if (store.stats.exact !== runs) throw new Error(`snapshot not used (${JSON.stringify(store.stats)})`);
      console.log(`  open + index from the snapshot, ${mode}: ${fmt(warm)}   (cold ${mode} above; target ≤ 150 ms)`);
    }
    // A grown file: the snapshot of a copy, then ~0.5 MB of lines appended (its last lines again).
    const copy = join(dir, "grown.jsonl");
    copyFileSync(file, copy);
    const store = new IndexSnapshots(join(dir, "grown"), { defer: () => undefined });
    openSessionSync(copy, { skim: true, snapshots: store });
    await store.flush();
    const tail = readFileSync(file).subarray(-(512 * 1024));
    appendFileSync(copy, tail.subarray(tail.indexOf(0x0a) + 1));
    const grown = timed(runs, () => openSessionSync(copy, { skim: true, snapshots: store }).index.size);
    if (store.stats.grown !== runs) throw new Error(`snapshot not used (${JSON.stringify(store.stats)})`);
    console.log(`  open + index from the snapshot of a file grown by ${(tail.length / 1024).toFixed(0)} KB since, skim: ${fmt(grown)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
