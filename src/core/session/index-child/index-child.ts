// The index child process (bundled as dist/index-child.js, forked by the
// extension host: index-child-client.ts). Reading a big session from scratch
// allocates ~57 MB of per-line objects for 100 MB, and encoding its snapshot
// blocks for 38–126 ms; here both stay out of the host, and the memory goes
// back to the system when the child exits. Requests are done one at a time,
// in the order received; each gets one reply. The host closes the channel when
// it has nothing more to ask for a while, and the child then exits.

import { validIndexChildRequest, type IndexChildReply } from "./index-child-protocol.js";
import { buildIndexSnapshot } from "./index-child-build.js";

let queue: Promise<void> = Promise.resolve();

function send(reply: IndexChildReply): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(reply, undefined, {}, () => resolve());
  });
}

process.on("message", (message: unknown) => {
  const request = validIndexChildRequest(message);
  if (!request) {
    process.exitCode = 2;
    process.disconnect?.();
    return;
  }
  queue = queue.then(async () => {
    const start = process.cpuUsage();
    const outcome = await buildIndexSnapshot(request).catch((e: unknown) => ({ result: "not-written" as const, why: e instanceof Error ? e.message : String(e) }));
    const cpu = process.cpuUsage(start);
    await send({ id: request.id, ...outcome, cpuMs: (cpu.user + cpu.system) / 1000 });
  });
});
// No host (its IPC channel closed): nothing to build for.
process.on("disconnect", () => process.exit());
