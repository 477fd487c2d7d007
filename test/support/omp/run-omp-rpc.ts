// Drives the real `omp` 18.3.4 in RPC mode (`--mode rpc`: JSON commands on stdin,
// JSON frames on stdout) resuming a session file against the loopback model
// server, for round trips that need more than one prompt: `compact`, `handoff`,
// `set_session_name`, `get_entries`, prompts, and — through rpc-extension.ts —
// navigation with a branch summary, labels and /clear, which omp offers only in
// its TUI. `close()` ends the session (omp writes its session_exit) and returns
// the model requests omp made and the file after.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createInterface } from "node:readline";
import type { RecordedRequest } from "../model-server.js";
import type { OmpInstall } from "./install.js";
import { ompResumeArgs, prepareOmpHome, type OmpCliOptions, type OmpHome } from "./run-omp-cli.js";

export const OMP_RPC_EXTENSION = fileURLToPath(new URL("./rpc-extension.ts", import.meta.url));

export type OmpRpcOptions = Omit<OmpCliOptions, "prompt" | "timeoutMs">;

export interface OmpRpcResponse {
  type: "response";
  id: string;
  command: string;
  success: boolean;
  data?: unknown;
  error?: string;
}

export interface OmpRpcClosed {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
  requests: RecordedRequest[];
  fileAfter: Buffer;
}

type Frame = Record<string, unknown> & { type?: string; id?: string };

export class OmpRpc {
  /** Every JSON frame omp wrote, in order. */
  readonly frames: Frame[] = [];
  private readonly waiters: { match(f: Frame): boolean; resolve(f: Frame): void }[] = [];
  private stderr = "";
  private next = 0;
  private readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly omp: OmpHome,
    private readonly options: OmpRpcOptions,
    private readonly firstRequest: number,
  ) {
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
      let frame: Frame;
      try {
        frame = JSON.parse(line) as Frame;
      } catch {
        return;
      }
      this.frames.push(frame);
      for (const w of [...this.waiters]) {
        if (w.match(frame)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(frame);
        }
      }
    });
    child.stderr.on("data", (d: Buffer) => (this.stderr = (this.stderr + d.toString("utf8")).slice(-8000)));
    this.exited = new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal })));
  }

  /** Starts omp resuming `options.file`, with rpc-extension.ts loaded, and waits until it is ready. */
  static async start(install: OmpInstall, options: OmpRpcOptions, timeoutMs = 60_000): Promise<OmpRpc> {
    const omp = prepareOmpHome(options);
    const args = [...ompResumeArgs(install, options.file, options.model), "--mode", "rpc", "-e", OMP_RPC_EXTENSION, ...(options.extraArgs ?? [])];
    const child = spawn(install.bun, args, { cwd: omp.cwd, env: omp.env, stdio: ["pipe", "pipe", "pipe"] });
    const rpc = new OmpRpc(child, omp, options, options.server.requests.length);
    await rpc.waitFor((f) => f.type === "ready", timeoutMs);
    return rpc;
  }

  /** The first frame (already written or still to come) that matches. */
  waitFor(match: (frame: Frame) => boolean, timeoutMs = 60_000): Promise<Frame> {
    const seen = this.frames.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`omp rpc: no matching frame in ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`)), timeoutMs);
      this.waiters.push({ match, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }

  /**
   * Sends one command and waits for its response; a prompt that started the
   * agent is also waited for until omp reports its result.
   */
  async send(command: Record<string, unknown> & { type: string }, timeoutMs = 120_000): Promise<OmpRpcResponse> {
    const id = `t${++this.next}`;
    this.child.stdin.write(JSON.stringify({ id, ...command }) + "\n");
    const response = (await this.waitFor((f) => f.type === "response" && f.id === id, timeoutMs)) as unknown as OmpRpcResponse;
    const data = response.data as { agentInvoked?: boolean } | undefined;
    if (command.type === "prompt" && response.success && data?.agentInvoked !== false) {
      await this.waitFor((f) => f.type === "prompt_result" && f.id === id, timeoutMs);
    }
    return response;
  }

  /** Ends the session (stdin closed: omp records its session_exit and exits). */
  async close(timeoutMs = 30_000): Promise<OmpRpcClosed> {
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    try {
      const { code, signal } = await this.exited;
      return { code, signal, stderr: this.stderr, requests: this.options.server.requests.slice(this.firstRequest), fileAfter: readFileSync(this.options.file) };
    } finally {
      clearTimeout(timer);
      this.omp.cleanup();
    }
  }
}
