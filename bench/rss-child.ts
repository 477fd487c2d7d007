// The process the RSS target is about: nothing loaded but our core, one 100 MB
// session opened and indexed; prints RSS and heap after a GC. Bundled on its
// own (out/rss-child.mjs) so the bench's oracle (pi and its dependencies) is
// not counted: in the bench's own process that is another ~30 MB of heap.
// Mode "index child <dir>": opened as the extension host does, through the index
// child (dist/index-child.js) writing the snapshot in <dir>, then from it.
import { resolve } from "node:path";
import { IndexChild } from "../src/core/session/index-child/index-child-client";
import { IndexSnapshots } from "../src/core/session/snapshot/index-snapshot";
import { openSession, openSessionSync } from "../src/core/session/open/open-session";

const [file, mode, dir] = process.argv.slice(2);
let note = "";
let session;
if (mode === "index child") {
  const child = new IndexChild(resolve("dist/index-child.js"), { warn: (m) => (note += ` ${m}`) });
  const snapshots = new IndexSnapshots(dir!, { builder: () => child });
  const cpu = process.cpuUsage();
  session = await openSession(file!, { snapshots });
  const used = process.cpuUsage(cpu);
  note += `; this process ${((used.user + used.system) / 1000).toFixed(0)} ms CPU, the child ${child.stats.cpuMs.toFixed(0)} ms, snapshot ${snapshots.stats.builtElsewhere ? "written by the child" : "not written by the child"}, opened from it: ${snapshots.stats.exact + snapshots.stats.grown > 0}`;
  child.dispose();
} else session = openSessionSync(file!, { skim: mode === "skim" });
// Twice, a turn apart: V8 frees array buffers' memory after a GC, off the main thread.
(globalThis as { gc?: () => void }).gc?.();
await new Promise((resolve) => setTimeout(resolve, 100));
(globalThis as { gc?: () => void }).gc?.();
const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
console.log(`${(rss / 1024 / 1024).toFixed(0)} MB (${session.index.size} entries; heap ${(heapUsed / 1024 / 1024).toFixed(0)} MB, array buffers ${(arrayBuffers / 1024 / 1024).toFixed(0)} MB${note})`);
