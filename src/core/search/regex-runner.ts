// Runs a `re:` query over sessions with a time limit. JavaScript regexes
// backtrack (`re:(a+)+$` can take forever on one long message) and cannot be
// interrupted in the thread running them, so the matching runs in a worker
// thread that the caller terminates when one session takes longer than
// `perSessionMs` (that session is reported as not searched, and a new worker
// continues with the next) or all of them longer than `totalMs`. Same engine
// as pi, so results equal pi's wherever the limit was not hit.
import { Worker } from "node:worker_threads";

export interface RegexJob {
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
}

export interface RegexRun {
  /** One per job; undefined where the job was not run or was stopped. */
  outcomes: (RegexOutcome | undefined)[];
  /** Jobs stopped by the per-session limit. */
  timedOut: number[];
  /** The total limit (or the signal) stopped the run before every job was done. */
  stopped: "time" | "aborted" | null;
}

// Plain JavaScript, evaluated as the worker (no bundling or file lookup needed in the extension host).
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { openSync, readSync } = require("node:fs");
const { pattern, jobs, first, maxPositions } = workerData;
const once = new RegExp(pattern, "i");
const all = new RegExp(pattern, "gi");
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
  return Buffer.concat(parts).toString("utf8");
}
for (let i = first; i < jobs.length; i++) {
  const job = jobs[i];
  parentPort.postMessage({ started: i });
  let text = "";
  try { text = read(job.text); } catch {}
  const positions = [];
  all.lastIndex = 0;
  for (let m; positions.length < maxPositions && (m = all.exec(text)) !== null; ) {
    positions.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) all.lastIndex++;
  }
  let field = null;
  if (job.name && once.test(job.name)) field = "name";
  else if (once.test(job.id)) field = "id";
  else if (positions.length > 0) field = "messages";
  else if (once.test(job.cwd)) field = "cwd";
  parentPort.postMessage({ done: i, field, positions });
}
parentPort.postMessage({ finished: true });
`;

export async function runRegex(pattern: string, jobs: readonly RegexJob[], options: RegexRunOptions = {}): Promise<RegexRun> {
  const perSessionMs = options.perSessionMs ?? 1000;
  const totalMs = options.totalMs ?? 10_000;
  const maxPositions = options.maxPositions ?? 20;
  const outcomes: (RegexOutcome | undefined)[] = new Array(jobs.length);
  const timedOut: number[] = [];
  const deadline = Date.now() + totalMs;
  let next = 0;
  let stopped: RegexRun["stopped"] = null;
  while (next < jobs.length && stopped === null) {
    const result = await runWorker(pattern, jobs, next, maxPositions, perSessionMs, deadline, outcomes, options.signal);
    if (result.kind === "finished") break;
    if (result.kind === "aborted") stopped = "aborted";
    else if (result.kind === "deadline") stopped = "time";
    else {
      timedOut.push(result.index);
      next = result.index + 1;
    }
  }
  return { outcomes, timedOut, stopped };
}

const WORKER_START_GRACE_MS = 2000;

type WorkerEnd = { kind: "finished" } | { kind: "slow"; index: number } | { kind: "deadline" } | { kind: "aborted" };

function runWorker(
  pattern: string,
  jobs: readonly RegexJob[],
  first: number,
  maxPositions: number,
  perSessionMs: number,
  deadline: number,
  outcomes: (RegexOutcome | undefined)[],
  signal: AbortSignal | undefined,
): Promise<WorkerEnd> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve({ kind: "aborted" });
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, jobs, first, maxPositions } });
    let current = first;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const end = (value: WorkerEnd): void => {
      if (settled) return;
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(value);
    };
    const arm = (grace = 0): void => {
      if (timer) clearTimeout(timer);
      const left = deadline - Date.now();
      const wait = Math.max(0, Math.min(perSessionMs + grace, left));
      timer = setTimeout(() => end(left <= perSessionMs ? { kind: "deadline" } : { kind: "slow", index: current }), wait);
    };
    const onAbort = (): void => end({ kind: "aborted" });
    signal?.addEventListener("abort", onAbort);
    worker.on("message", (m: { started?: number; done?: number; field?: RegexOutcome["field"]; positions?: [number, number][]; finished?: boolean }) => {
      if (m.finished) return end({ kind: "finished" });
      if (m.started !== undefined) {
        current = m.started;
        arm();
      } else if (m.done !== undefined) {
        outcomes[m.done] = { field: m.field ?? null, positions: m.positions ?? [] };
      }
    });
    worker.on("error", () => end({ kind: "slow", index: current }));
    worker.on("exit", () => end({ kind: "finished" }));
    // Starting a worker takes a while on a busy machine; that is not the regex's time.
    arm(WORKER_START_GRACE_MS);
  });
}
