// The child process that reads session files for the catalogue (bundled as
// dist/catalogue-fill.js): its allocation churn (~1 GB of JSON for a cold
// 5,000-session listing) stays out of the extension host's heap. It takes one
// FillRequest over IPC, sends one answer per file as it is read, then "done",
// and exits. The host validates every answer (see bulk-reader.ts). Given the
// catalogue's log, it appends each slice's records there before answering
// them, so the host need not write 5,000 rows again (it loads the log anew,
// validating every line, in its next run). Asked for sums ahead instead
// (sum-ahead.ts), it answers each file's projected sum and logs nothing.

import { validFillRequest, type BulkAnswer, type FillRequest } from "./bulk-reader.js";
import type { CatalogueRecord } from "./catalogue-file.js";
import { appendRecords } from "./catalogue-log.js";
import { rowVersionPolicy } from "./catalogue-row.js";
import { readRecord } from "./read-record.js";
import { policyName } from "./session-catalogue.js";
import { sumAnswerOf } from "./sum-ahead.js";

/** Work between two yields to the event loop (lets IPC flush the answers so far). */
const SLICE_MS = 30;

function send(answer: BulkAnswer): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(answer, undefined, {}, () => resolve());
  });
}

async function fill(request: FillRequest): Promise<void> {
  const versionOf = rowVersionPolicy(request.options);
  const ruleName = policyName(request.options);
  const start = process.cpuUsage();
  let sliceStart = Date.now();
  let pending: Promise<void> = Promise.resolve();
  let slice: BulkAnswer[] = [];
  // Logged first, then answered: an answer never claims a line that is not written.
  const flush = async (): Promise<void> => {
    const answers = slice;
    slice = [];
    const records = answers.flatMap((a) => (a.kind === "record" ? [a.record] : []));
    const bytes = request.log && !request.sums && records.length > 0 ? await appendRecords(request.log, ruleName, records) : undefined;
    let k = 0;
    for (const answer of answers) {
      if (answer.kind === "record" && bytes) answer.logged = bytes[k++];
      pending = send(answer);
    }
    await pending;
  };
  for (const [i, path] of request.paths.entries()) {
    let answer: BulkAnswer;
    try {
      answer = request.sums ? sumAnswerOf(path, versionOf, request.sizes?.[i]) : { kind: "record", record: readRecord(path, versionOf) as CatalogueRecord };
    } catch {
      answer = { kind: "unreadable", path };
    }
    slice.push(answer);
    if (Date.now() - sliceStart >= SLICE_MS) {
      await flush();
      sliceStart = Date.now();
    }
  }
  await flush();
  const cpu = process.cpuUsage(start);
  await send({ kind: "done", cpuMs: (cpu.user + cpu.system) / 1000 });
}

process.once("message", (message: unknown) => {
  const request = validFillRequest(message);
  if (!request) {
    process.exitCode = 2;
    process.disconnect?.();
    return;
  }
  fill(request).then(
    () => process.disconnect?.(),
    () => {
      process.exitCode = 1;
      process.disconnect?.();
    },
  );
});
// No host (its IPC channel closed): nothing to read for.
process.on("disconnect", () => process.exit());
