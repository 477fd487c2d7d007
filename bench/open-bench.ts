// BENCH_ONLY=open: open + index of the 100 MB session alone (skim and exact),
// wall and CPU time of each run (process.cpuUsage), against the read floor.
import { performance } from "node:perf_hooks";
import { openSessionSync } from "../src/core/session/open-session";
import { chunkedLineCount } from "./live-bench";

interface Timing {
  wall: number[];
  cpu: number[];
}

function timed(runs: number, fn: () => unknown): Timing {
  const gc = (globalThis as { gc?: () => void }).gc;
  const t: Timing = { wall: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    gc?.();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    if (!fn()) throw new Error("produced nothing");
    const w = performance.now() - w0;
    const c = process.cpuUsage(c0);
    t.wall.push(w);
    t.cpu.push((c.user + c.system) / 1000);
  }
  return t;
}

const best = (xs: number[]): number => Math.min(...xs);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (t: Timing): string =>
  `best ${best(t.wall).toFixed(0)} ms wall / ${best(t.cpu).toFixed(0)} ms CPU (medians ${median(t.wall).toFixed(0)} / ${median(t.cpu).toFixed(0)})`;

export function openBench(file: string, runs: number): void {
  console.log("\nopen + index of the 100 MB session (this process; CPU = process.cpuUsage)");
  const floor = timed(runs, () => chunkedLineCount(file));
  console.log(`  floor (4 MiB buffer + count lines): ${fmt(floor)}`);
  const skim = timed(runs, () => openSessionSync(file, { skim: true }).index.size);
  console.log(`  open + index, skim:  ${fmt(skim)}   (target ≤ 150 ms)`);
  const exact = timed(runs, () => openSessionSync(file).index.size);
  console.log(`  open + index, exact: ${fmt(exact)}`);
}
