// Runs a `re:` query over sessions with a time limit. JavaScript regexes
// backtrack (`re:(a+)+$` can take forever on one long message) and cannot be
// interrupted in the thread running them, so the matching runs in a worker
// thread that is terminated when one session takes longer than `perSessionMs`
// (that session is reported as not searched, and a new worker continues with
// the others) or all of them longer than `totalMs`. Same engine as pi, so
// results equal pi's wherever the limit was not hit.
//
// The worker stays up between queries (the extension searches as the user
// types) and keeps the sessions' decoded text, so a warm query runs the regex
// and nothing else; it is stopped after a while without queries, and its text
// is lost when it is terminated. It says which job it is on through shared
// memory (no message per session) and sends outcomes in batches.
//
// Jobs come in pi's order for sessions of equal rank (most recent first). With
// `want`, the worker stops once the first `want` sessions in pi's order are
// known: every name is tested first (a name match ranks above any other), then
// the text of sessions in order until enough have matched.
import { Worker } from "node:worker_threads";

export interface RegexJob {
  /** Identifies the text (changes when the text does): the worker's cache key. */
  key: string;
  name: string | undefined;
  id: string;
  cwd: string;
  /** Where the session's original message text is (UTF-8), in order. */
  text: { path: string; off: number; len: number }[];
}

export interface RegexOutcome {
  /** pi's order: name, id, messages, cwd; null: no match. */
  field: "name" | "id" | "messages" | "cwd" | null;
  /** Matches in the message text (UTF-16 offsets, at most maxPositions). */
  positions: [number, number][];
}

export interface RegexRunOptions {
  perSessionMs?: number;
  totalMs?: number;
  maxPositions?: number;
  signal?: AbortSignal;
  /** Stop once the first `want` sessions in pi's order are known (jobs after them may have no outcome). */
  want?: number;
}

export interface RegexRun {
  /** One per job; undefined where the job was not run, was stopped, or was not needed (`want`). */
  outcomes: (RegexOutcome | undefined)[];
  /** Jobs stopped by the per-session limit. */
  timedOut: number[];
  /** The total limit (or the signal) stopped the run before every job was done. */
  stopped: "time" | "aborted" | null;
  /** Every job was run (false when `want` let the run stop early). */
  complete: boolean;
}

// Plain JavaScript, evaluated as the worker (no bundling or file lookup needed in the extension host).
// progress: [run id, job index] of the job being matched, and the id of a run to cancel.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { closeSync, openSync, readSync } = require("node:fs");
const progress = new Int32Array(workerData.progress);
const maxCachedChars = workerData.maxCachedChars;
const cache = new Map();
let cachedChars = 0;
const fds = new Map();
function read(chunks) {
  const parts = [];
  for (const c of chunks) {
    let fd = fds.get(c.path);
    if (fd === undefined) { fd = openSync(c.path, "r"); fds.set(c.path, fd); }
    const buf = Buffer.allocUnsafe(c.len);
    let done = 0;
    while (done < c.len) { const n = readSync(fd, buf, done, c.len - done, c.off + done); if (n === 0) break; done += n; }
    parts.push(buf.subarray(0, done));
  }
  return (parts.length === 1 ? parts[0] : Buffer.concat(parts)).toString("utf8");
}
function text(job) {
  let t = cache.get(job.key);
  if (t !== undefined) return t;
  try { t = read(job.text); } catch { return ""; }
  if (t.length <= maxCachedChars / 8) {
    for (const [k, v] of cache) { if (cachedChars + t.length <= maxCachedChars) break; cache.delete(k); cachedChars -= v.length; }
    cache.set(job.key, t);
    cachedChars += t.length;
  }
  return t;
}
parentPort.on("message", (run) => {
  const { runId, pattern, jobs, skip, done, maxPositions, want } = run;
  const once = new RegExp(pattern, "i");
  const all = new RegExp(pattern, "gi");
  const skipped = new Set(skip);
  Atomics.store(progress, 1, -1);
  Atomics.store(progress, 0, runId);
  // Names first: a name match ranks above every other match.
  const named = new Uint8Array(jobs.length);
  let namedCount = 0;
  for (let i = 0; i < jobs.length; i++) {
    if (skipped.has(i)) continue;
    if ((i & 255) === 0 && Atomics.load(progress, 2) === runId) return finish(runId, [], false);
    Atomics.store(progress, 1, i);
    if (jobs[i].name && once.test(jobs[i].name)) { named[i] = 1; namedCount++; }
  }
  let namedShown = 0;
  let othersMatched = 0;
  for (let i = 0; i < jobs.length; i++) if (done[i] === 2 && !named[i]) othersMatched++;
  let batch = [];
  let sent = Date.now();
  let complete = true;
  for (let i = 0; i < jobs.length; i++) {
    if (skipped.has(i)) continue;
    if (named[i]) namedShown++;
    if (done[i] !== 0) continue;
    if (Atomics.load(progress, 2) === runId) return finish(runId, batch, false);
    if (want >= 0 && (named[i] ? namedShown > want : namedCount + othersMatched >= want)) { complete = false; continue; }
    Atomics.store(progress, 1, i);
    const job = jobs[i];
    const t = text(job);
    const positions = [];
    all.lastIndex = 0;
    for (let m; positions.length < maxPositions && (m = all.exec(t)) !== null; ) {
      positions.push([m.index, m.index + m[0].length]);
      if (m[0].length === 0) all.lastIndex++;
    }
    let field = null;
    if (named[i]) field = "name";
    else if (once.test(job.id)) field = "id";
    else if (positions.length > 0) field = "messages";
    else if (once.test(job.cwd)) field = "cwd";
    if (field !== null && !named[i]) othersMatched++;
    batch.push([i, field, positions]);
    if (batch.length >= 500 || Date.now() - sent > 30) { parentPort.postMessage({ runId, batch }); batch = []; sent = Date.now(); }
  }
  finish(runId, batch, complete);
});
function finish(runId, batch, complete) {
  // Segments are replaced over time: none is held open between queries.
  for (const fd of fds.values()) closeSync(fd);
  fds.clear();
  Atomics.store(progress, 1, -1);
  parentPort.postMessage({ runId, batch, finished: true, complete });
}
`;

const WORKER_START_GRACE_MS = 2000;
/** The worker (and the text it holds) is stopped after this long without a query. */
const IDLE_MS = 120_000;
/** Decoded text the worker keeps between queries (UTF-16 code units). */
const MAX_CACHED_CHARS = 96 * 1024 * 1024;

/** How an attempt ended; "stale": the worker is still busy with an earlier, cancelled query (it is replaced). */
type AttemptEnd = { kind: "finished"; complete: boolean } | { kind: "slow"; index: number } | { kind: "stale" } | { kind: "deadline" } | { kind: "aborted" };

export class RegexRunner {
  private worker: Worker | null = null;
  private readonly progress = new Int32Array(new SharedArrayBuffer(12));
  private runs = 0;
  private idle: NodeJS.Timeout | undefined;

  async run(pattern: string, jobs: readonly RegexJob[], options: RegexRunOptions = {}): Promise<RegexRun> {
    if (this.idle) clearTimeout(this.idle);
    const perSessionMs = options.perSessionMs ?? 1000;
    const deadline = Date.now() + (options.totalMs ?? 10_000);
    const outcomes: (RegexOutcome | undefined)[] = new Array(jobs.length);
    const timedOut: number[] = [];
    let stopped: RegexRun["stopped"] = null;
    let complete = false;
    for (;;) {
      const end = await this.attempt(pattern, jobs, outcomes, timedOut, options.maxPositions ?? 20, options.want ?? -1, perSessionMs, deadline, options.signal);
      if (end.kind === "finished") {
        complete = end.complete;
        break;
      }
      if (end.kind === "aborted") {
        // Cancelled between two sessions (the worker and its text stay); a stuck session is the next query's to stop.
        stopped = "aborted";
        break;
      }
      this.close();
      if (end.kind === "slow") timedOut.push(end.index);
      else if (end.kind === "deadline") {
        stopped = "time";
        break;
      }
    }
    this.idle = setTimeout(() => this.close(), IDLE_MS);
    this.idle.unref();
    return { outcomes, timedOut, stopped, complete: complete && stopped === null };
  }

  /** Stops the worker (its text is dropped). */
  close(): void {
    if (this.idle) clearTimeout(this.idle);
    void this.worker?.terminate();
    this.worker = null;
  }

  private spawn(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { progress: this.progress.buffer, maxCachedChars: MAX_CACHED_CHARS } });
    // Never keeps a process (the CLI) alive.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  private attempt(
    pattern: string,
    jobs: readonly RegexJob[],
    outcomes: (RegexOutcome | undefined)[],
    timedOut: readonly number[],
    maxPositions: number,
    want: number,
    perSessionMs: number,
    deadline: number,
    signal: AbortSignal | undefined,
  ): Promise<AttemptEnd> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve({ kind: "aborted" });
      const worker = this.spawn();
      const runId = ++this.runs;
      const done = new Uint8Array(jobs.length);
      outcomes.forEach((o, i) => (done[i] = o ? (o.field ? 2 : 1) : 0));
      let settled = false;
      // What the worker is on: -2 before it has started this run, -1 between jobs, else the job's index.
      let seen = -2;
      // Starting a worker takes a while on a busy machine; that is not the regex's time.
      let seenAt = Date.now() + WORKER_START_GRACE_MS;
      const end = (value: AttemptEnd): void => {
        if (settled) return;
        settled = true;
        clearInterval(watchdog);
        signal?.removeEventListener("abort", onAbort);
        worker.off("message", onMessage);
        worker.off("error", onError);
        worker.off("exit", onExit);
        resolve(value);
      };
      const watchdog = setInterval(() => {
        const now = Date.now();
        if (now >= deadline) return end({ kind: "deadline" });
        const index = Atomics.load(this.progress, 0) === runId ? Atomics.load(this.progress, 1) : -2;
        if (index !== seen) {
          seen = index;
          seenAt = now;
        } else if (now - seenAt > perSessionMs) {
          end(index === -2 ? { kind: "stale" } : { kind: "slow", index: index >= 0 ? index : firstUndone(outcomes, timedOut) });
        }
      }, Math.max(5, Math.min(50, perSessionMs / 4)));
      const onAbort = (): void => {
        Atomics.store(this.progress, 2, runId);
        end({ kind: "aborted" });
      };
      const onMessage = (m: { runId: number; batch: [number, RegexOutcome["field"], [number, number][]][]; finished?: boolean; complete?: boolean }): void => {
        if (m.runId !== runId) return;
        for (const [i, field, positions] of m.batch) outcomes[i] = { field, positions };
        if (m.finished) end({ kind: "finished", complete: m.complete ?? true });
      };
      const onError = (): void => end({ kind: "slow", index: seen >= 0 ? seen : firstUndone(outcomes, timedOut) });
      const onExit = (): void => end({ kind: "slow", index: seen >= 0 ? seen : firstUndone(outcomes, timedOut) });
      signal?.addEventListener("abort", onAbort);
      worker.on("message", onMessage);
      worker.on("error", onError);
      worker.on("exit", onExit);
      worker.postMessage({ runId, pattern, jobs, skip: timedOut, done, maxPositions, want });
    });
  }
}

function firstUndone(outcomes: readonly (RegexOutcome | undefined)[], timedOut: readonly number[]): number {
  for (let i = 0; i < outcomes.length; i++) if (!outcomes[i] && !timedOut.includes(i)) return i;
  return 0;
}
