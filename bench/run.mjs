// Bundles bench/bench.ts (pi stays external: it is the oracle, loaded from node_modules) and runs it.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";

const options = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  external: ["@mariozechner/pi-coding-agent", "@mariozechner/pi-ai", "web-tree-sitter"],
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  logLevel: "warning",
};
await build({ ...options, entryPoints: ["bench/bench.ts"], outfile: "out/bench.mjs" });
// The RSS child: our core alone (see bench/rss-child.ts).
await build({ ...options, entryPoints: ["bench/rss-child.ts"], outfile: "out/rss-child.mjs" });
// One catalogue row of the 100 MB session, streamed or from the full index (see bench/catalogue-row-child.ts).
await build({ ...options, entryPoints: ["bench/catalogue-row-child.ts"], outfile: "out/catalogue-row-child.mjs" });
// BENCH_ONLY=search (or main) runs one part; BENCH_ONLY=live, catalogue, files, prepare, pi-hook, omp or omp-live one part of main.
const only = process.env.BENCH_ONLY;
// omp's own code in a Bun worker: the baseline of the omp rows (bench/omp-bench.ts).
if (only === undefined || only === "omp") {
  await build({ ...options, external: [], banner: {}, target: "esnext", entryPoints: ["test/support/omp/worker.ts"], outfile: "out/omp-worker.mjs" });
}
let status = 0;
if (only !== "search") status ||= spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=8192", "out/bench.mjs"], { stdio: "inherit" }).status ?? 1;
if (only === undefined || only === "search") {
  // The search bench makes the catalogue bench's folder when missing (with pi's parser: external, as above).
  await build({ ...options, entryPoints: ["bench/search.ts"], outfile: "out/search-bench.mjs" });
  status ||= spawnSync(process.execPath, ["--expose-gc", "out/search-bench.mjs"], { stdio: "inherit" }).status ?? 1;
}
process.exitCode = status;
