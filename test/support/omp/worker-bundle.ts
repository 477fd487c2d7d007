// The omp oracle worker (worker.ts + answers + the random session generator) as
// one .mjs file Bun runs: bundled with esbuild into the OS temp folder, named by
// the hash of its content, so concurrent test runs and branches never overwrite
// each other's worker and an unchanged worker is written once.

import { createHash } from "node:crypto";
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const WORKER_SOURCE = fileURLToPath(new URL("./worker.ts", import.meta.url));

export async function buildOmpWorker(): Promise<string> {
  const result = await build({
    entryPoints: [WORKER_SOURCE],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "esnext",
    write: false,
    logLevel: "silent",
  });
  const code = result.outputFiles[0]!.contents;
  const hash = createHash("sha1").update(code).digest("hex").slice(0, 16);
  const path = join(tmpdir(), `pi-sessions-omp-worker-${hash}.mjs`);
  if (!existsSync(path)) {
    const partial = `${path}.${process.pid}.tmp`;
    writeFileSync(partial, code);
    renameSync(partial, path);
  }
  return path;
}
