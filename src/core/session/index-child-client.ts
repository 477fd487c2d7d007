// The host's side of the index child (index-child.ts, bundled as
// dist/index-child.js): forked on the first request with this process's own
// runtime (Electron as Node in VS Code: ELECTRON_RUN_AS_NODE), kept for a burst
// of requests, and let go (its channel closed, so it exits and its memory goes
// back to the system) after `idleMs` without one. A child that cannot start,
// dies, hangs past `timeoutMs` or answers something invalid is stopped and not
// asked again: every request then answers "unavailable" (the caller does the
// work itself, as without a child), with one line to `warn`.

import type { ChildProcess } from "node:child_process";
import { forkOwnRuntime } from "../fork-own-runtime.js";
import { validIndexChildReply, type IndexChildReply, type IndexChildRequest } from "./index-child-protocol.js";
import type { SnapshotBuilder, SnapshotBuildRequest, SnapshotBuildResult } from "./index-snapshot.js";

export interface IndexChildOptions {
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
  private broken = false;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (r: SnapshotBuildResult) => void; timer: NodeJS.Timeout }>();
  private idle: NodeJS.Timeout | undefined;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly script: string,
    private readonly options: IndexChildOptions = {},
  ) {}

  get available(): boolean {
    return !this.broken;
  }

  /** One request at a time (each one's time limit counts from its own start, not from the queue's). */
  build(request: SnapshotBuildRequest): Promise<SnapshotBuildResult> {
    const result = this.queue.then(() => this.buildNow(request));
    this.queue = result;
    return result;
  }

  private buildNow(request: SnapshotBuildRequest): Promise<SnapshotBuildResult> {
    if (this.broken) return Promise.resolve("unavailable");
    const child = this.child ?? this.start();
    if (!child) return Promise.resolve("unavailable");
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = this.nextId++;
    return new Promise<SnapshotBuildResult>((resolve) => {
      const timer = setTimeout(() => this.fail(`it answered nothing for ${(this.options.timeoutMs ?? TIMEOUT_MS) / 1000} s`), this.options.timeoutMs ?? TIMEOUT_MS);
      this.waiting.set(id, { resolve, timer });
      const message: IndexChildRequest = { type: "index", id, ...request };
      child.send(message, (error) => {
        if (error) this.fail(`it cannot be sent the request: ${messageOf(error)}`);
      });
    });
  }

  /** Stops the child (no warning); later requests start a new one. */
  dispose(): void {
    this.stop();
  }

  /** Stops the child and forgets a failure: the next request starts a new one. */
  reset(): void {
    this.stop();
    this.broken = false;
  }

  private start(): ChildProcess | undefined {
    let child: ChildProcess;
    try {
      child = forkOwnRuntime(this.script);
    } catch (error) {
      this.fail(`it cannot start: ${messageOf(error)}`);
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
      this.child = undefined;
      // Exiting with requests unanswered is a failure; exiting when let go is not.
      if (this.waiting.size > 0) this.fail(`it exited (${signal ?? `code ${code}`})${stderr ? `: ${stderr.trim().split("\n")[0]}` : ""}`);
    });
    return child;
  }

  private answer(child: ChildProcess, m: unknown): void {
    if (this.child !== child) return;
    const reply: IndexChildReply | undefined = validIndexChildReply(m);
    const pending = reply && this.waiting.get(reply.id);
    if (!reply || !pending) return this.fail("it sent an invalid answer");
    this.waiting.delete(reply.id);
    clearTimeout(pending.timer);
    this.stats.built++;
    this.stats.cpuMs += reply.cpuMs;
    pending.resolve(reply.result);
    if (this.waiting.size === 0) {
      this.idle = setTimeout(() => this.stop(), this.options.idleMs ?? IDLE_MS);
      this.idle.unref?.();
    }
  }

  /** The child is not asked again; what waits for it answers "unavailable". */
  private fail(why: string, child = this.child): void {
    if (this.broken || (child !== undefined && child !== this.child)) return;
    this.broken = true;
    this.options.warn?.(`the index process stopped (${why}); big sessions are read in this process`);
    this.stop();
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
