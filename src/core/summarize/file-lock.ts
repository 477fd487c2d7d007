// An exclusive lock on a file that pi itself respects: pi locks auth.json with
// proper-lockfile, which creates the directory "<realpath>.lock" (mkdir is
// atomic), treats it as stale when its mtime is older than 30 s, and touches
// it while held. We do the same with Node built-ins so pi and pi-sessions
// never refresh the same OAuth token at once.

import { mkdir, realpath, rm, stat, utimes } from "node:fs/promises";
import { isNodeError } from "./json-config.js";
import { ModelConfigError } from "./model-config-error.js";

export interface FileLockOptions {
  /** A lock older than this is taken over (proper-lockfile's `stale`, pi uses 30 s). */
  staleMs?: number;
  /** Give up after waiting this long for the lock. */
  timeoutMs?: number;
  /** First wait between attempts; doubles up to 1 s. */
  retryDelayMs?: number;
}

const DEFAULTS = { staleMs: 30_000, timeoutMs: 40_000, retryDelayMs: 50 };

export function lockPathFor(resolvedFile: string): string {
  return `${resolvedFile}.lock`;
}

async function resolveTarget(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return file;
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function acquire(lockPath: string, options: Required<FileLockOptions>): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  let delay = options.retryDelayMs;
  for (;;) {
    try {
      await mkdir(lockPath);
      return;
    } catch (error) {
      if (!isNodeError(error) || error.code !== "EEXIST") throw error;
    }
    try {
      const info = await stat(lockPath);
      if (Date.now() - info.mtimeMs > options.staleMs) {
        await rm(lockPath, { recursive: true, force: true });
        continue;
      }
    } catch (error) {
      if (isNodeError(error) && error.code === "ENOENT") continue;
      throw error;
    }
    if (Date.now() >= deadline) {
      throw new ModelConfigError("lock-timeout", `Timed out waiting for the lock ${lockPath} (another pi or pi-sessions is using it; remove it if no one is).`, {
        file: lockPath,
      });
    }
    await sleep(Math.min(delay, Math.max(0, deadline - Date.now())));
    delay = Math.min(delay * 2, 1000);
  }
}

/** Runs fn while holding the lock on `file`; always releases it. */
export async function withFileLock<T>(file: string, fn: () => Promise<T>, options: FileLockOptions = {}): Promise<T> {
  const settings = { ...DEFAULTS, ...options };
  const lockPath = lockPathFor(await resolveTarget(file));
  await acquire(lockPath, settings);
  const touch = setInterval(() => {
    const now = new Date();
    utimes(lockPath, now, now).catch(() => undefined);
  }, Math.max(1000, Math.floor(settings.staleMs / 2)));
  touch.unref();
  try {
    return await fn();
  } finally {
    clearInterval(touch);
    await rm(lockPath, { recursive: true, force: true });
  }
}
