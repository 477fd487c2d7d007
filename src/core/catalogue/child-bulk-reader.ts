// The BulkReader that forks dist/catalogue-fill.js (fill-child.ts) with this
// process's own runtime (Electron as Node in VS Code: ELECTRON_RUN_AS_NODE).
// Used for a cold fill only (many files, or many bytes, none recorded): the
// start of a process is not worth it for a few. Whatever the child does not
// answer — it cannot start, dies, hangs, or sends something invalid — ends the
// answers early, with one line to `warn`; the catalogue reads the rest itself.

import type { ChildProcess } from "node:child_process";
import { forkOwnRuntime } from "../fork-own-runtime.js";
import { validAnswer, type BulkAnswer, type BulkReader, type FillRequest, type StaleFile } from "./bulk-reader.js";
import type { CatalogueOptions } from "./session-catalogue.js";

export interface ChildBulkOptions {
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
  return {
    wants: (files: readonly StaleFile[]) => files.length > 0 && (files.length >= minFiles || files.reduce((sum, f) => sum + f.size, 0) >= minBytes),
    read: (paths, catalogueOptions, log) => answersOf(script, request(paths, catalogueOptions, log), options.idleMs ?? IDLE_MS, options.warn ?? (() => undefined)),
    sums: (files, catalogueOptions) =>
      answersOf(script, { ...request(files.map((f) => f.path), catalogueOptions), sums: true, sizes: files.map((f) => f.size) }, options.idleMs ?? IDLE_MS, options.warn ?? (() => undefined)),
  };
}

function request(paths: readonly string[], options: CatalogueOptions, log?: string): FillRequest {
  return { type: "fill", options, paths: [...paths], ...(log ? { log } : {}) };
}

async function* answersOf(script: string, request: FillRequest, idleMs: number, warn: (m: string) => void): AsyncGenerator<BulkAnswer> {
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
    warn(`cannot start the catalogue reader process (${message(error)}); ${request.sums ? "no sums ahead" : "reading the sessions in this process"}`);
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
    if (ended) warn(`the catalogue reader process stopped early (${ended}); ${request.sums ? `no sums ahead for ${asked.size} sessions` : `reading the ${asked.size} sessions left in this process`}`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill();
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
