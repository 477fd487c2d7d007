// omp's publish lock (omp 18.3.4 session-storage.ts #withPublishLock): every
// omp append and every rewrite of a session file runs while holding
// `<dir>/.<file>.lock`, created with O_EXCL and holding `${pid}:${Date.now()}\n`,
// removed afterwards. A writer waits at most 500 ms; a lock whose pid is dead,
// or a contentless/malformed one older than 500 ms, is stale and removed (after
// re-reading it, so a live lock that replaced it is left alone). omp also holds
// a native flock on `<lock>.os`, but it claims the lockfile as well, so holding
// the lockfile excludes omp's writers. Held for a moment only: an omp appending
// meanwhile waits (and gives up after 500 ms).

import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export const OMP_LOCK_WAIT_MS = 500;
const POLL_MS = 2;

/** The lock could not be taken: another writer (a running omp) holds it. */
export class OmpLockBusyError extends Error {
  constructor(readonly path: string) {
    super(`${path}: omp holds the session's publish lock (it is writing to it); nothing was written: retry`);
    this.name = "OmpLockBusyError";
  }
}

export function ompLockPath(sessionPath: string): string {
  return join(dirname(sessionPath), `.${basename(sessionPath)}.lock`);
}

const sleepBuffer = new Int32Array(new SharedArrayBuffer(4));
function sleepMs(ms: number): void {
  Atomics.wait(sleepBuffer, 0, 0, ms);
}

function code(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function holderPid(content: string): number | undefined {
  const match = /^(\d+):(\d+)\s*$/.exec(content);
  if (!match) return undefined;
  const pid = Number.parseInt(match[1]!, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // ESRCH: gone. EPERM: alive, not ours. Anything else: assume alive.
    return code(error) === "EPERM" || code(error) !== "ESRCH";
  }
}

/** Creates the lock with O_EXCL and checks our record survived; false when someone else holds the name. */
function tryCreate(lockPath: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, "wx", 0o600);
  } catch (error) {
    if (code(error) === "EEXIST") return false;
    throw error;
  }
  const record = `${process.pid}:${Date.now()}\n`;
  try {
    writeFileSync(fd, record);
  } catch (error) {
    closeSync(fd);
    try {
      unlinkSync(lockPath);
    } catch {
      // removed by a concurrent steal
    }
    throw error;
  } finally {
    try {
      closeSync(fd);
    } catch {
      // already closed above
    }
  }
  try {
    return readFileSync(lockPath, "utf8") === record;
  } catch {
    return false;
  }
}

/** Removes the lock only when its holder is verifiably gone; true when the caller should try again. */
function stealStale(lockPath: string): boolean {
  let content: string;
  try {
    content = readFileSync(lockPath, "utf8");
  } catch (error) {
    return code(error) === "ENOENT";
  }
  const pid = holderPid(content);
  if (pid !== undefined) {
    if (alive(pid)) return false;
  } else {
    let mtimeMs: number;
    try {
      mtimeMs = statSync(lockPath).mtimeMs;
    } catch {
      return true;
    }
    if (Date.now() - mtimeMs <= OMP_LOCK_WAIT_MS) return false;
  }
  try {
    if (readFileSync(lockPath, "utf8") !== content) return false;
    unlinkSync(lockPath);
    return true;
  } catch (error) {
    return code(error) === "ENOENT";
  }
}

/** Runs `task` holding omp's publish lock of `sessionPath`; OmpLockBusyError after `waitMs` when omp holds it. */
export function withOmpPublishLock<T>(sessionPath: string, task: () => T, waitMs = OMP_LOCK_WAIT_MS): T {
  const lockPath = ompLockPath(sessionPath);
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (tryCreate(lockPath) || (stealStale(lockPath) && tryCreate(lockPath))) break;
    if (Date.now() >= deadline) throw new OmpLockBusyError(sessionPath);
    sleepMs(POLL_MS);
  }
  try {
    return task();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // already gone: nothing to release
    }
  }
}
