// The BulkReader that forks dist/catalogue-fill.js (fill-child.ts) with this
// process's own runtime (Electron as Node in VS Code: ELECTRON_RUN_AS_NODE).
// Used for a cold fill only (many files, or many bytes, none recorded): the
// start of a process is not worth it for a few. Whatever the child does not
// answer — it cannot start, dies, hangs, or sends something invalid — ends the
// answers early; the catalogue reads the rest itself. Such a failure keeps the
// reader from starting children for a back-off (child-backoff.ts: 30 s, 2 min,
// 10 min, then not until reload), one log line per change of state, none per
// request: meanwhile fills stay in-process and no sums are computed ahead.

import type { ChildProcess } from "node:child_process";
import { ChildBackoff, type ChildBackoffOptions } from "../child-backoff.js";
import { forkOwnRuntime } from "../fork-own-runtime.js";
import { validAnswer, type BulkAnswer, type BulkReader, type FillRequest, type StaleFile } from "./bulk-reader.js";
import type { CatalogueOptions } from "./session-catalogue.js";
import { counted } from "../text/counted.js";

export interface ChildBulkOptions extends Pick<ChildBackoffOptions, "retryDelaysMs" | "now"> {
  /** Hand over at least this many files… */
  minFiles?: number;
  /** …or at least this many bytes. */
  minBytes?: number;
  /** No answer for this long: the child is stopped (ms). */
  idleMs?: number;
  warn?: (message: string) => void;
}

export const CHILD_MIN_FILES = 200;
export const CHILD_MIN_BYTES = 64 * 1024 * 1024;
const IDLE_MS = 60_000;

export function childBulkReader(script: string, options: ChildBulkOptions = {}): BulkReader {
  const minFiles = options.minFiles ?? CHILD_MIN_FILES;
  const minBytes = options.minBytes ?? CHILD_MIN_BYTES;
  const backoff = new ChildBackoff("the catalogue reader process", "sessions are read in this process, no sums ahead", options);
  const idleMs = options.idleMs ?? IDLE_MS;
  return {
    wants: (files: readonly StaleFile[]) => backoff.available && files.length > 0 && (files.length >= minFiles || files.reduce((sum, f) => sum + f.size, 0) >= minBytes),
    read: (paths, catalogueOptions, log) => answersOf(script, request(paths, catalogueOptions, log), idleMs, backoff),
    sums: (files, catalogueOptions) => answersOf(script, { ...request(files.map((f) => f.path), catalogueOptions), sums: true, sizes: files.map((f) => f.size) }, idleMs, backoff),
  };
}

function request(paths: readonly string[], options: CatalogueOptions, log?: string): FillRequest {
  return { type: "fill", options, paths: [...paths], ...(log ? { log } : {}) };
}

/** Nothing during a back-off (the caller reads, or keeps no sum). */
async function* answersOf(script: string, request: FillRequest, idleMs: number, backoff: ChildBackoff): AsyncGenerator<BulkAnswer> {
  if (!backoff.available) return;
  const paths = request.paths;
  const queue: BulkAnswer[] = [];
  let ended: string | null = null; // why the answers stopped ("" when done)
  let wake: (() => void) | null = null;
  const notify = (): void => {
    wake?.();
    wake = null;
  };
  const stop = (why: string): void => {
    if (ended === null) ended = why;
    notify();
  };
  const asked = new Set(paths);
  let child: ChildProcess;
  try {
    child = forkOwnRuntime(script);
  } catch (error) {
    backoff.failed(`it cannot start: ${message(error)}`);
    return;
  }
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (d: string) => {
    if (stderr.length < 2000) stderr += d;
  });
  child.on("message", (m: unknown) => {
    const answer = validAnswer(m);
    const path = answer?.kind === "record" ? answer.record.path : answer?.kind === "unreadable" || answer?.kind === "sum" ? answer.path : undefined;
    // A record asked for a sum (or a sum for a record) is not an answer.
    const asKind = answer?.kind === "record" || answer?.kind === "sum" ? (answer.kind === "sum") === (request.sums === true) : true;
    if (!answer || !asKind || (path !== undefined && !asked.delete(path))) return stop("it sent an invalid answer");
    queue.push(answer);
    if (answer.kind === "done") stop("");
    else notify();
  });
  child.on("error", (error) => stop(`it failed: ${message(error)}`));
  child.on("close", (code, signal) => stop(`it exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split("\n")[0]}` : ""}`));
  child.send(request, (error) => {
    if (error) stop(`it cannot be sent the files: ${message(error)}`);
  });
  try {
    for (;;) {
      while (queue.length > 0) yield queue.shift()!;
      if (ended !== null) break;
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(() => stop(`it answered nothing for ${idleMs / 1000} s`), idleMs);
      });
      clearTimeout(timer);
    }
    while (queue.length > 0) yield queue.shift()!;
    if (ended) backoff.failed(`${ended}; ${request.sums ? `no sums ahead for ${counted(asked.size, "session")}` : `${counted(asked.size, "session")} left to read`}`);
    else backoff.succeeded();
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
