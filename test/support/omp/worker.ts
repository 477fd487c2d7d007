// The omp 18.3.4 oracle process: runs under Bun (bundled by worker-bundle.ts with
// esbuild), imports the oracle copy of omp's bundle (argv[2]) and answers
// newline-delimited JSON requests on stdin (`{id, op, args}`) with
// `{id, ok, result | error}` lines on stdout. Everything is computed by omp's own
// code; this file only calls it. omp's agent dir (blobs, config.yml, models.yml)
// is `$PI_CODING_AGENT_DIR`, set by the client.
//
// By hand (prints one JSON answer per file):
//   bun worker.mjs <cli-oracle.js> answers FILE…        (see README.md)

import { createInterface } from "node:readline";
import { answers, loadBack, type OmpAnswersArgs } from "./answers.js";
import { benchOps } from "./bench-ops.js";
import { loginKeys, type LoginKeysArgs } from "./login-keys.js";
import { loadOmp, type Json, type Omp } from "./omp-modules.js";
import { generateOmpSession, type GenerateArgs } from "./random-session-omp.js";
import { summaryRequests, type SummaryRequestsArgs } from "./summary-requests.js";

async function settingsFrom(omp: Omp, args: { cwd: string; agentDir: string }): Promise<Json> {
  return { compaction: await omp.compactionSettingsFrom(args.cwd, args.agentDir), branchSummary: await omp.branchSummarySettingsFrom(args.cwd, args.agentDir) };
}

function opsFor(omp: Omp, started: number, loaded: number): Record<string, (args: never) => Promise<Json> | Json> {
  return {
    ping: () => ({ pid: process.pid, bun: process.versions.bun, startupMs: { toImport: loaded - started } }),
    answers: (args: OmpAnswersArgs) => answers(omp, args),
    loadBack: (args: { file: string }) => loadBack(omp, args),
    settings: (args: { cwd: string; agentDir: string }) => settingsFrom(omp, args),
    generate: (args: GenerateArgs) => generateOmpSession(omp, args),
    summaryRequests: (args: SummaryRequestsArgs) => summaryRequests(omp, args),
    loginKeys: (args: LoginKeysArgs) => loginKeys(omp, args),
    ...benchOps(omp),
  };
}

async function serve(ops: Record<string, (args: never) => Promise<Json> | Json>): Promise<void> {
  const write = (line: Json): void => {
    process.stdout.write(JSON.stringify(line) + "\n");
  };
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const request = JSON.parse(line) as { id: number; op: string; args: never };
    try {
      const op = ops[request.op];
      if (!op) throw new Error(`unknown op ${request.op}`);
      write({ id: request.id, ok: true, result: await op(request.args) });
    } catch (error) {
      write({ id: request.id, ok: false, error: error instanceof Error ? `${error.message}\n${error.stack ?? ""}` : String(error) });
    }
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const [oracleJs, mode, ...files] = process.argv.slice(2);
  if (!oracleJs) throw new Error("usage: bun worker.mjs <cli-oracle.js> [answers FILE…]");
  // Anything omp might print must not mix with the answers on stdout.
  const out = process.stdout.write.bind(process.stdout);
  console.log = console.error;
  console.info = console.error;
  console.warn = console.error;
  const omp = await loadOmp(oracleJs);
  const ops = opsFor(omp, started, performance.now());
  if (mode === "answers") {
    for (const file of files) out(JSON.stringify(await answers(omp, { file }), null, 1) + "\n");
    return;
  }
  await serve(ops);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`omp oracle worker failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  },
);
