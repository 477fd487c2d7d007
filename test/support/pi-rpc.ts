// A real pi CLI in RPC mode (`pi --mode rpc`), offline, with its agent folder
// the caller's (typically writeLoopbackAgentDir + settings.json "extensions"):
// pi 0.73.1 (the devDependency, on this Node) or pi 1.5.2 (the cache, on
// Node 22). Commands are JSON lines on stdin; responses and events come back
// as JSON lines on stdout.

import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join, resolve } from "node:path";

export type PiCli = "0.73" | "1.5";

export interface PiRpcOptions {
  /** For pi 1.5: Node 22 and the CLI from the cache (oracle().paths). */
  paths?: { node: string; cliJs: string };
  agentDir: string;
  cwd: string;
  args: readonly string[];
  env?: NodeJS.ProcessEnv;
}

export interface RpcMessage {
  type: string;
  id?: string;
  command?: string;
  success?: boolean;
  error?: string;
  data?: unknown;
  [key: string]: unknown;
}

export interface PiRpc {
  messages: RpcMessage[];
  stderr(): string;
  /** Sends a command and waits for its response. */
  call(command: Record<string, unknown>, timeoutMs?: number): Promise<RpcMessage>;
  /** The first message (from `from` on) that matches. */
  waitFor(match: (m: RpcMessage) => boolean, timeoutMs?: number, from?: number): Promise<RpcMessage>;
  close(): Promise<void>;
}

export function pi073CliJs(): string {
  // The package exports no CJS entry nor its package.json: find its folder from the project's node_modules.
  return join(resolve(__dirname, "..", "..", "node_modules", "@mariozechner", "pi-coding-agent"), "dist", "cli.js");
}

export function startPiRpc(cli: PiCli, options: PiRpcOptions): PiRpc {
  const node = cli === "1.5" ? options.paths!.node : process.execPath;
  const cliJs = cli === "1.5" ? options.paths!.cliJs : pi073CliJs();
  const child: ChildProcessWithoutNullStreams = spawn(node, [cliJs, "--mode", "rpc", ...options.args], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PI_OFFLINE: "1", PI_CODING_AGENT_DIR: options.agentDir },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const messages: RpcMessage[] = [];
  const waiters = new Set<() => void>();
  let stderr = "";
  let buffer = "";
  let exited = false;
  child.stdout.on("data", (chunk: Buffer) => {
    buffer += chunk.toString("utf8");
    let at: number;
    while ((at = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, at).trim();
      buffer = buffer.slice(at + 1);
      if (!line.startsWith("{")) continue;
      try {
        messages.push(JSON.parse(line) as RpcMessage);
      } catch {
        continue;
      }
      for (const wake of [...waiters]) wake();
    }
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  child.on("exit", () => {
    exited = true;
    for (const wake of [...waiters]) wake();
  });

  const waitFor = (match: (m: RpcMessage) => boolean, timeoutMs = 60_000, from = 0): Promise<RpcMessage> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = messages.slice(from).find(match);
        if (found) {
          finish();
          resolve(found);
          return true;
        }
        if (exited) {
          finish();
          reject(new Error(`pi exited before the awaited message; stderr:\n${stderr.slice(-2000)}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`timed out waiting for a pi RPC message; last messages: ${JSON.stringify(messages.slice(-3)).slice(0, 1500)}\nstderr:\n${stderr.slice(-2000)}`));
      }, timeoutMs);
      const finish = (): void => {
        clearTimeout(timer);
        waiters.delete(wake);
      };
      const wake = (): void => void check();
      waiters.add(wake);
      check();
    });

  let next = 0;
  return {
    messages,
    stderr: () => stderr,
    call(command, timeoutMs) {
      const id = `t${++next}`;
      const from = messages.length;
      child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
      return waitFor((m) => m.type === "response" && m.id === id, timeoutMs, from);
    },
    waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        if (exited) return resolve();
        child.once("exit", () => resolve());
        child.stdin.end();
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 3000).unref();
      }),
  };
}
