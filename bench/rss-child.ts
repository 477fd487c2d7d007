// The process the RSS target is about: nothing loaded but our core, one 100 MB
// session opened and indexed; prints RSS and heap after a GC. Bundled on its
// own (out/rss-child.mjs) so the bench's oracle (pi and its dependencies) is
// not counted: in the bench's own process that is another ~30 MB of heap.
import { openSessionSync } from "../src/core/session/open-session";

const [file, mode] = process.argv.slice(2);
const session = openSessionSync(file!, { skim: mode === "skim" });
(globalThis as { gc?: () => void }).gc?.();
const { rss, heapUsed } = process.memoryUsage();
console.log(`${(rss / 1024 / 1024).toFixed(0)} MB (${session.index.size} entries; heap ${(heapUsed / 1024 / 1024).toFixed(0)} MB)`);
