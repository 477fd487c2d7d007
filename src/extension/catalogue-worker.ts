// The worker thread that reads big session files in full for their catalogue
// rows (dist/catalogue-worker.js): a 100 MB read leaves ~100 MB of garbage and
// a grown young generation behind in whatever heap it ran in — here it is the
// worker's, given back when the worker ends, not the extension host's.
// No vscode in here: the core only.
import { parentPort } from "node:worker_threads";
import { readRecord, recordToWire, type RowPolicy } from "../core/catalogue/session-catalogue";

export interface ReadRequest {
  id: number;
  path: string;
  policy: RowPolicy;
}

parentPort?.on("message", (request: ReadRequest) => {
  try {
    parentPort!.postMessage({ id: request.id, record: recordToWire(readRecord(request.path, request.policy)) });
  } catch (error) {
    parentPort!.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
