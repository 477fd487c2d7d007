// The usage report over the catalogue's rows (issue 25's targets): 5,000
// sessions cut from pi's large fixture (the catalogue bench's folder).
// Cold: an empty cache, every file read (the catalogue's cold fill, now with
// its spend cells), then the report; warm: the cache loaded and every file
// stat'ed, then the report; the report alone (rows in memory, as the Usage view
// draws from the Sessions view's rows) and a period change. CPU of this process.
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { SessionCatalogue } from "../src/core/catalogue/session-catalogue";
import type { CatalogueRow } from "../src/core/catalogue/catalogue-row";
import { jsonlFilesIn } from "../src/core/discovery/discover";
import { periodDays, usageReport } from "../src/core/usage";
import { catalogueFolder } from "./catalogue-folder";

const ms = (n: number): string => `${n.toFixed(0)} ms`;

function cpu<T>(work: () => T): { value: T; cpuMs: number; wallMs: number } {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = work();
  const d = process.cpuUsage(c);
  return { value, cpuMs: (d.user + d.system) / 1000, wallMs: performance.now() - t };
}

async function cpuAsync<T>(work: () => Promise<T>): Promise<{ value: T; cpuMs: number; wallMs: number }> {
  const c = process.cpuUsage();
  const t = performance.now();
  const value = await work();
  const d = process.cpuUsage(c);
  return { value, cpuMs: (d.user + d.system) / 1000, wallMs: performance.now() - t };
}

function best(runs: number, work: () => number): number {
  let b = Infinity;
  for (let i = 0; i < runs; i++) b = Math.min(b, work());
  return b;
}

export async function usageBench(fixture: string): Promise<void> {
  const count = Number(process.env.BENCH_SESSIONS ?? 5000);
  console.log(`\nusage: ${count} sessions in one folder`);
  const folder = catalogueFolder(fixture, count);
  const files = await jsonlFilesIn(folder);
  const total = files.reduce((n, f) => n + (existsSync(f) ? statSync(f).size : 0), 0);
  console.log(`  folder ${folder}: ${files.length} files, ${(total / 1024 / 1024).toFixed(0)} MB`);
  const cache = join(tmpdir(), `pi-sessions-bench-usage-cache-${process.pid}`);
  rmSync(cache, { recursive: true, force: true });
  try {
    const cold = await cpuAsync(async () => {
      const catalogue = await SessionCatalogue.open(cache);
      const rows = await catalogue.list(files);
      await catalogue.save();
      return rows;
    });
    const coldReport = cpu(() => usageReport(cold.value, { stack: "model" }));
    const cells = cold.value.reduce((n, r) => n + r.spend.cells.length / 8, 0);
    const logFile = (await SessionCatalogue.open(cache)).file;
    console.log(`  catalogue cold fill (every file read, spend cells included, saved): ${ms(cold.wallMs)} wall, ${ms(cold.cpuMs)} CPU; ${cold.value.length} rows, ${cells} spend cells, log ${(readFileSync(logFile).length / 1024 / 1024).toFixed(1)} MB`);
    console.log(`  usage cold = that fill + the report: + ${ms(coldReport.cpuMs)} CPU (target: no slower than the catalogue's cold fill)`);

    const warm = await cpuAsync(async () => {
      const catalogue = await SessionCatalogue.open(cache);
      const rows = await catalogue.list(files);
      return usageReport(rows, { ...periodDays("all", Date.now()), stack: "model" });
    });
    console.log(`  warm, a new process (catalogue loaded, ${files.length} files stat'ed, report of all time): ${ms(warm.wallMs)} wall, ${ms(warm.cpuMs)} CPU (information)`);

    const rows: CatalogueRow[] = cold.value;
    const newest = Math.max(...rows.map((r) => r.lastActivity));
    // The period ends at the newest session (the fixture is old): a month and a week with spend in them.
    const first = best(5, () => cpu(() => usageReport(rows, { ...periodDays("30d", newest), stack: "model" })).cpuMs);
    const all = best(5, () => cpu(() => usageReport(rows, { stack: "project" })).cpuMs);
    const week = best(5, () => cpu(() => usageReport(rows, { ...periodDays("7d", newest), stack: "model", rollUp: true })).cpuMs);
    console.log(`  first chart, rows in memory (30 days, by model): ${ms(first)} CPU (target ≤ 300 ms)`);
    console.log(`  period change to all time (by project): ${ms(all)} CPU, to 7 days rolled up: ${ms(week)} CPU (target ≤ 100 ms)`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}
