// How the real-host benchmark measures (shared by its steps): the host's CPU
// with process.cpuUsage() from a piece of work until what it should show is
// shown (then SETTLE_MS more, VS Code fetching the rows), minus the host's idle
// CPU over the same wall time; its memory; a settled GC before a step; each
// line reported to the run's output file as it comes.
import { appendFileSync, closeSync, openSync, readSync, statSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { waitFor } from "../suite/helpers";

const SETTLE_MS = 400;

const results: string[] = [];
export function report(line: string): void {
  results.push(line);
  const out = process.env.PI_SESSIONS_VSCODE_OUTPUT_FILE;
  if (out) appendFileSync(out, `  BENCH ${line}\n`);
}

/** Every line reported by this step (printed at its end). */
export function reported(): readonly string[] {
  return results;
}

export function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

let idleRate = 0;
/** Host CPU per wall ms with nothing to do (timers, IPC keep-alive): the quietest of five seconds (a background save or GC in one of them is not idle). */
export async function measureIdle(): Promise<number> {
  const rates: number[] = [];
  for (let i = 0; i < 5; i++) {
    const cpu = process.cpuUsage();
    const t = performance.now();
    await sleep(1000);
    rates.push(cpuMs(cpu) / (performance.now() - t));
  }
  idleRate = Math.min(...rates);
  return idleRate;
}

/** CPU of `work` until `done` holds, then SETTLE_MS more (VS Code fetching the rows), minus idle. */
export async function measure(work: () => void | Promise<void>, done: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  await work();
  await waitFor("the update", async () => (await done()) || undefined, timeoutMs);
  await sleep(SETTLE_MS);
  const wall = performance.now() - t;
  return { cpu: Math.max(0, cpuMs(cpu) - idleRate * wall), wall };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export function mb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

/** process.memoryUsage() in MB: rss and what V8 and Buffers hold of it. */
export function memoryLine(): string {
  const m = process.memoryUsage();
  return `rss ${mb(m.rss)}, heap used ${mb(m.heapUsed)} of ${mb(m.heapTotal)}, external ${mb(m.external)} (array buffers ${mb(m.arrayBuffers)})`;
}

/** A full GC (the host is not started with --expose-gc: the flag is set now and gc taken from a fresh context). */
const collect: (options?: { type: "major"; execution: "sync"; flavor: "last-resort" }) => void = (() => {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
})();

export async function settleGc(): Promise<void> {
  collect();
  await sleep(1000);
  collect();
  // V8 sweeps and frees after a full GC on its helper threads, and process.cpuUsage() counts them:
  // without this wait, 10–15 ms of that landed in the write measured next.
  await sleep(500);
}

/**
 * A memory-reducing GC (V8's last-resort flavour), as V8 runs under memory pressure: it also gives
 * back the pages V8 keeps pooled after a big transient heap (a plain full GC keeps them resident),
 * so the RSS after it is what is held, not what the runtime kept for reuse.
 */
export async function reduceMemoryGc(): Promise<void> {
  collect({ type: "major", execution: "sync", flavor: "last-resort" });
  await sleep(500);
}

export function verdict(name: string, value: number, target: string, ok: boolean): void {
  report(`${name}: ${value.toFixed(1)} ${target} ${ok ? "ok" : "MISSED"}`);
}

/** The id of the file's last entry (what the agent's next line continues), read from its last MiB. */
export function lastEntryIdInFile(path: string): string {
  const size = statSync(path).size;
  const length = Math.min(size, 1024 * 1024);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, length, size - length);
  } finally {
    closeSync(fd);
  }
  const lines = buffer.toString("utf8").split("\n").filter((l) => l.trim());
  return (JSON.parse(lines[lines.length - 1]!) as { id: string }).id;
}
