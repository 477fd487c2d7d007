// The host's side of the index child (index-child.ts, bundled as
// dist/index-child.js): forked on the first request with this process's own
// runtime (Electron as Node in VS Code: ELECTRON_RUN_AS_NODE), kept for a burst
// of requests, and let go (its channel closed, so it exits and its memory goes
// back to the system) after `idleMs` without one. A child that cannot start,
// dies, hangs past `timeoutMs` or answers something invalid is stopped, and a
// new one is started only after a back-off (child-backoff.ts: 30 s, 2 min,
// 10 min, then never): meanwhile every request answers "unavailable" (the
// caller does the work itself, as without a child). One line to `warn` per
// change of state, never one per request.

import type { ChildProcess } from "node:child_process";
import { ChildBackoff, type ChildBackoffOptions } from "../../child-backoff.js";
import { forkOwnRuntime } from "../../fork-own-runtime.js";
import { validIndexChildReply, type IndexChildReply, type IndexChildRequest } from "./index-child-protocol.js";
import type { SnapshotBuilder, SnapshotBuildRequest, SnapshotBuildResult } from "../snapshot/index-snapshot.js";

export interface IndexChildOptions extends Pick<ChildBackoffOptions, "retryDelaysMs" | "now"> {
  /** No reply to a request for this long: the child is stopped (ms). */
  timeoutMs?: number;
  /** No request for this long: the child is let go (ms). */
  idleMs?: number;
  warn?: (message: string) => void;
}

const TIMEOUT_MS = 30_000;
const IDLE_MS = 10_000;

export class IndexChild implements SnapshotBuilder {
  /** Requests answered by the child, and its CPU for them (ms). */
  readonly stats = { built: 0, cpuMs: 0, started: 0 };
  private child: ChildProcess | undefined;
  private readonly backoff: ChildBackoff;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: SnapshotBuildResult) => void; timer: NodeJS.Timeout }>();
  private idle: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly script: string,
    private readonly options: IndexChildOptions = {},
  ) {
    this.backoff = new ChildBackoff("the index process", "big sessions are read in this process", options);
  }

  /** Whether a request would be sent to a child now (not during a back-off, nor after the last). */
  get available(): boolean {
    return this.backoff.available;
  }

  /** One request at a time (each one's time limit counts from its own start, not from the queue's). */
  build(request: SnapshotBuildRequest): Promise<SnapshotBuildResult> {
    const result = this.queue.then(() => this.buildNow(request));
    this.queue = result;
    return result;
  }

  private buildNow(request: SnapshotBuildRequest): Promise<SnapshotBuildResult> {
    if (!this.backoff.available) return Promise.resolve("unavailable");
    const child = this.child ?? this.start();
    if (!child) return Promise.resolve("unavailable");
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = this.nextId++;
    return new Promise<SnapshotBuildResult>((resolve) => {
      const timer = setTimeout(() => this.fail(`it answered nothing for ${(this.options.timeoutMs ?? TIMEOUT_MS) / 1000} s`, child), this.options.timeoutMs ?? TIMEOUT_MS);
      this.waiting.set(id, { resolve, timer });
      const message: IndexChildRequest = { type: "index", id, ...request };
      child.send(message, (error) => {
        if (error) this.fail(`it cannot be sent the request: ${messageOf(error)}`, child);
      });
    });
  }

  /** Stops the child (no warning); later requests start a new one. */
  dispose(): void {
    this.stop();
  }

  /** Stops the child and forgets its failures: the next request starts a new one. */
  reset(): void {
    this.stop();
    this.backoff.reset();
  }

  private start(): ChildProcess | undefined {
    let child: ChildProcess;
    try {
      child = forkOwnRuntime(this.script);
    } catch (error) {
      this.fail(`it cannot start: ${messageOf(error)}`, undefined);
      return undefined;
    }
    this.stats.started++;
    this.child = child;
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      if (stderr.length < 2000) stderr += d;
    });
    child.on("message", (m: unknown) => this.answer(child, m));
    child.on("error", (error) => this.fail(`it failed: ${messageOf(error)}`, child));
    child.on("exit", (code, signal) => {
      if (this.child !== child) return;
      // Exiting with requests unanswered is a failure; exiting when let go is not.
      if (this.waiting.size > 0) this.fail(`it exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split("\n")[0]}` : ""}`, child);
      else this.child = undefined;
    });
    return child;
  }

  private answer(child: ChildProcess, m: unknown): void {
    if (this.child !== child) return;
    const reply: IndexChildReply | undefined = validIndexChildReply(m);
    const pending = reply && this.waiting.get(reply.id);
    if (!reply || !pending) return this.fail("it sent an invalid answer", child);
    this.waiting.delete(reply.id);
    clearTimeout(pending.timer);
    this.backoff.succeeded();
    this.stats.built++;
    this.stats.cpuMs += reply.cpuMs;
    pending.resolve(reply.result);
    if (this.waiting.size === 0) {
      this.idle = setTimeout(() => this.stop(), this.options.idleMs ?? IDLE_MS);
      this.idle.unref?.();
    }
  }

  /**
   * `child` (undefined: none started) failed: it is stopped, what waits for it answers "unavailable",
   * and no child is asked during the back-off. A child already stopped failed before: nothing more.
   */
  private fail(why: string, child: ChildProcess | undefined): void {
    if (child !== this.child) return;
    this.stop();
    this.backoff.failed(why);
  }

  private stop(): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null && child.signalCode === null) {
      // Let go: closing the channel makes an idle child exit; one that hangs is killed.
      if (this.waiting.size === 0 && child.connected) child.disconnect();
      else child.kill();
    }
    for (const { resolve, timer } of this.waiting.values()) {
      clearTimeout(timer);
      resolve("unavailable");
    }
    this.waiting.clear();
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
