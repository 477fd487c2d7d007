// Full reads of big session files for the catalogue, in a worker thread
// (catalogue-worker.ts), started when the first one is asked for and ended
// once none has been asked for a while, so its memory is given back.
import { existsSync } from "node:fs";
import { Worker } from "node:worker_threads";
import type { RowPolicy, WireRecord } from "../core/catalogue/session-catalogue";
import type { ReadRequest } from "./catalogue-worker";

const IDLE_MS = 5_000;

type Reply = { id: number; record: WireRecord } | { id: number; error: string };

export class CatalogueReader {
  private worker: Worker | undefined;
  private next = 0;
  private readonly waiting = new Map<number, (record: WireRecord | undefined) => void>();
  private idle: NodeJS.Timeout | undefined;
  /** Files read in the worker (for tests and the benchmark). */
  reads = 0;

  constructor(
    private readonly script: string,
    private readonly log: (message: string) => void,
  ) {}

  /** The file's record as read in the worker; undefined when the worker cannot (the caller reads it itself). */
  read(path: string, policy: RowPolicy): Promise<WireRecord | undefined> {
    const worker = this.start();
    if (!worker) return Promise.resolve(undefined);
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    const id = this.next++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ id, path, policy } satisfies ReadRequest);
    });
  }

  private start(): Worker | undefined {
    if (this.worker) return this.worker;
    if (!existsSync(this.script)) return undefined;
    try {
      const worker = new Worker(this.script);
      worker.on("message", (reply: Reply) => this.settle(reply.id, "record" in reply ? reply.record : undefined, "error" in reply ? reply.error : undefined));
      worker.on("error", (error) => {
        if (this.worker === worker) this.stop(`catalogue worker failed: ${error.message}`);
      });
      worker.on("exit", () => {
        if (this.worker === worker) this.stop();
      });
      worker.unref();
      this.worker = worker;
      return worker;
    } catch (error) {
      this.log(`cannot start the catalogue worker: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  private settle(id: number, record: WireRecord | undefined, error?: string): void {
    if (error) this.log(`catalogue worker: ${error}`);
    else if (record) this.reads++;
    this.waiting.get(id)?.(record);
    this.waiting.delete(id);
    if (this.waiting.size === 0 && this.worker) {
      const worker = this.worker;
      this.idle = setTimeout(() => {
        if (this.worker !== worker || this.waiting.size > 0) return;
        this.worker = undefined;
        void worker.terminate();
      }, IDLE_MS);
    }
  }

  /** The worker is gone: whatever it had not answered is read by the caller. */
  private stop(message?: string): void {
    if (message) this.log(message);
    this.worker = undefined;
    if (this.idle) clearTimeout(this.idle);
    this.idle = undefined;
    for (const resolve of this.waiting.values()) resolve(undefined);
    this.waiting.clear();
  }

  dispose(): void {
    const worker = this.worker;
    this.stop();
    void worker?.terminate();
  }
}
