// npm run bench, `prepare` as a process: `pi-sessions prepare FILE --json`
// against pi doing the same work in its own process (SessionManager.open +
// prepareCompaction on the branch), alternated, best of `runs` each. Wall time,
// and each child's own CPU time (user + system; less at the mercy of a busy machine).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { performance } from "node:perf_hooks";

const PI_PREPARE = `
import { SessionManager } from "@mariozechner/pi-coding-agent";
import { DEFAULT_COMPACTION_SETTINGS, prepareCompaction } from "${resolve("node_modules/@mariozechner/pi-coding-agent/dist/core/compaction/compaction.js")}";
const prep = prepareCompaction(SessionManager.open(process.argv[1]).getBranch(), DEFAULT_COMPACTION_SETTINGS);
process.stdout.write(String(prep ? prep.messagesToSummarize.length : 0));
`;

interface Run {
  wallMs: number;
  cpuMs: number;
}

/** Runs a process to its end (stdout read and dropped); its CPU time comes from the preload's report on fd 3. */
export function runProcess(args: string[]): Promise<Run> {
  return new Promise((done, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ["-r", resolve("bench/cpu-at-exit.cjs"), ...args], { stdio: ["ignore", "pipe", "inherit", "pipe"], cwd: resolve(".") });
    let report = "";
    child.stdout!.resume();
    (child.stdio[3] as NodeJS.ReadableStream).on("data", (chunk: Buffer) => (report += chunk.toString("utf8")));
    child.on("error", fail);
    child.on("close", (code) => {
      if (code !== 0) fail(new Error(`${args.join(" ")}: exit ${code}`));
      else done({ wallMs: performance.now() - t0, cpuMs: Number.parseFloat(report) });
    });
  });
}

export async function prepareProcessBench(file: string, runs: number): Promise<void> {
  const cli = resolve("dist/cli.js");
  console.log("\nprepare as a process (100 MB session)");
  if (!existsSync(cli)) {
    console.log("  skipped (no dist/cli.js: npm run build)");
    return;
  }
  const best = { ours: { wallMs: Infinity, cpuMs: Infinity }, pi: { wallMs: Infinity, cpuMs: Infinity } };
  for (let i = 0; i < runs; i++) {
    const ours = await runProcess([cli, "prepare", file, "--json", "--pi-version", "0.73"]);
    const pi = await runProcess(["--input-type=module", "-e", PI_PREPARE, file]);
    for (const [key, run] of [["ours", ours], ["pi", pi]] as const) {
      best[key].wallMs = Math.min(best[key].wallMs, run.wallMs);
      best[key].cpuMs = Math.min(best[key].cpuMs, run.cpuMs);
    }
  }
  const ms = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(0)} ms` : "n/a");
  console.log(`  ours: pi-sessions prepare --json (writes the serialised history too): ${ms(best.ours.wallMs)} wall, ${ms(best.ours.cpuMs)} CPU`);
  console.log(`  pi: SessionManager.open + prepareCompaction in a process: ${ms(best.pi.wallMs)} wall, ${ms(best.pi.cpuMs)} CPU`);
  console.log(`  ratio ours / pi, best of ${runs} alternated: ${(best.ours.wallMs / best.pi.wallMs).toFixed(2)} wall, ${(best.ours.cpuMs / best.pi.cpuMs).toFixed(2)} CPU   (target ≤ 0.35)`);
}
