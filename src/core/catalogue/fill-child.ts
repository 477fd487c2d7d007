// The child process that reads session files for the catalogue (bundled as
// dist/catalogue-fill.js): its allocation churn (~1 GB of JSON for a cold
// 5,000-session listing) stays out of the extension host's heap. It takes one
// FillRequest over IPC, sends one answer per file as it is read, then "done",
// and exits. The host validates every answer (see bulk-reader.ts).

import { validFillRequest, type BulkAnswer } from "./bulk-reader.js";
import { rowVersionPolicy } from "./catalogue-row.js";
import { readRecord } from "./read-record.js";

/** Work between two yields to the event loop (lets IPC flush the answers so far). */
const SLICE_MS = 30;

function send(answer: BulkAnswer): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(answer, undefined, {}, () => resolve());
  });
}

async function fill(paths: readonly string[], versionOf: ReturnType<typeof rowVersionPolicy>): Promise<void> {
  const start = process.cpuUsage();
  let sliceStart = Date.now();
  let pending: Promise<void> = Promise.resolve();
  for (const path of paths) {
    let answer: BulkAnswer;
    try {
      answer = { kind: "record", record: readRecord(path, versionOf) };
    } catch {
      answer = { kind: "unreadable", path };
    }
    pending = send(answer);
    if (Date.now() - sliceStart >= SLICE_MS) {
      await pending;
      sliceStart = Date.now();
    }
  }
  const cpu = process.cpuUsage(start);
  await pending;
  await send({ kind: "done", cpuMs: (cpu.user + cpu.system) / 1000 });
}

process.once("message", (message: unknown) => {
  const request = validFillRequest(message);
  if (!request) {
    process.exitCode = 2;
    process.disconnect?.();
    return;
  }
  fill(request.paths, rowVersionPolicy(request.options)).then(
    () => process.disconnect?.(),
    () => {
      process.exitCode = 1;
      process.disconnect?.();
    },
  );
});
// No host (its IPC channel closed): nothing to read for.
process.on("disconnect", () => process.exit());
