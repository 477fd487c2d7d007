import { performance } from "node:perf_hooks";

export interface Row {
  name: string;
  bestMs: number;
  medianMs: number;
}

/** Best and median wall time of `runs` runs, with a GC before each when --expose-gc is on. */
export function measure(name: string, runs: number, fn: () => unknown): Row {
  const gc = (globalThis as { gc?: () => void }).gc;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    gc?.();
    const start = performance.now();
    const result = fn();
    times.push(performance.now() - start);
    if (!result) throw new Error(`${name}: produced nothing`);
  }
  times.sort((a, b) => a - b);
  return { name, bestMs: times[0]!, medianMs: times[Math.floor(times.length / 2)]! };
}

/** Wall and process CPU (user + system) of each run, ms. */
export interface Timing {
  wall: number[];
  cpu: number[];
}

/** Wall and CPU of `runs` runs, with a GC before each when --expose-gc is on. */
export function timed(runs: number, fn: () => unknown): Timing {
  const gc = (globalThis as { gc?: () => void }).gc;
  const t: Timing = { wall: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    gc?.();
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    if (!fn()) throw new Error("produced nothing");
    t.wall.push(performance.now() - w0);
    const c = process.cpuUsage(c0);
    t.cpu.push((c.user + c.system) / 1000);
  }
  return t;
}

export function formatTable(rows: readonly Row[], baseline: Row): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  const header = `${"".padEnd(width)}  ${"best ms".padStart(9)}  ${"median ms".padStart(9)}  ${"× JSON.parse".padStart(12)}`;
  const lines = rows.map(
    (r) => `${r.name.padEnd(width)}  ${r.bestMs.toFixed(0).padStart(9)}  ${r.medianMs.toFixed(0).padStart(9)}  ${(r.bestMs / baseline.bestMs).toFixed(2).padStart(12)}`,
  );
  return [header, ...lines].join("\n");
}
