// Ask omp 18.3.4 about session files by hand (installs it into the cache first):
//   npx jiti test/support/omp/by-hand.ts answers FILE…            omp's answers (JSON) at each file's leaf
//   npx jiti test/support/omp/by-hand.ts generate SEED DIR         a random session written by omp (+ its answers)
// Blobs for snapcompact frames: PI_SESSIONS_OMP_BLOBS=<folder> (e.g. test/fixtures/omp-18/blobs).

import { resolve } from "node:path";
import { framePngs, piFilesToResume } from "./corpus.js";
import { OmpOracle } from "./oracle.js";

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  const blobs = process.env.PI_SESSIONS_OMP_BLOBS;
  const started = Date.now();
  const oracle = await OmpOracle.start(blobs ? { blobsFrom: [resolve(blobs)] } : {});
  const ready = Date.now();
  try {
    if (command === "answers" && rest.length > 0) {
      for (const file of rest) console.log(JSON.stringify(await oracle.answers({ file: resolve(file) }), null, 1));
    } else if (command === "generate" && rest.length === 2) {
      const session = await oracle.generate({ seed: Number(rest[0]), dir: resolve(rest[1]!), piFiles: piFilesToResume(), pngs: framePngs() });
      console.log(JSON.stringify({ session, answers: await oracle.answers({ file: session.path, leaves: session.leaves }) }, null, 1));
    } else {
      throw new Error("usage: by-hand.ts answers FILE… | generate SEED DIR");
    }
    console.error(`omp oracle: started in ${ready - started} ms, answered in ${Date.now() - ready} ms (agent dir ${oracle.agentDir})`);
  } finally {
    oracle.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
