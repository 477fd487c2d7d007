// A child process running an agent's own code (pi 1.5.2 under Node 22, omp
// 18.3.4 under Bun), asked questions as JSON lines (`{id, op, args}` →
// `{id, ok, result|error}`). Used by the oracles and the bench (no vitest here).

import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { createInterface } from "node:readline";

export class OracleWorker {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private stderr = "";

  /** `agent` names the oracle in errors ("pi 1.5.2", "omp 18.3.4"). */
  constructor(
    agent: string,
    private readonly child: ChildProcessWithoutNullStreams,
  ) {
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
      const answer = JSON.parse(line) as { id: number; ok: boolean; result?: unknown; error?: string };
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if (answer.ok) waiting?.resolve(answer.result);
      else waiting?.reject(new Error(`${agent} oracle: ${answer.error}`));
    });
    child.stderr.on("data", (data: Buffer) => {
      this.stderr = (this.stderr + data.toString("utf8")).slice(-4000);
    });
    child.on("exit", (code, signal) => {
      for (const waiting of this.pending.values()) waiting.reject(new Error(`${agent} oracle exited (${code ?? signal}): ${this.stderr.trim()}`));
      this.pending.clear();
    });
  }

  request<T>(op: string, args: unknown): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.child.stdin.write(JSON.stringify({ id, op, args }) + "\n");
    });
  }

  close(): void {
    this.child.stdin.end();
    this.child.kill();
  }
}
