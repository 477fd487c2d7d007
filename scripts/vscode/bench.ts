// npm run bench:vscode: the real-host benchmark (test/vscode/bench) in a fresh
// code-server whose pi folder for the workspace holds two ~100 MB sessions (built
// from pi's large fixture by the core bench's generator), a 0.35 MB one and
// thousands of small ones; beside them, for the omp step, the core omp bench's
// ~100 MB omp session (bench/omp-session.ts) and the pi session it is compared
// with, copied in by that step. The generated files are kept in the system temp
// folder and reused. The host suite prints each number against its target.
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readSync, writeFileSync } from "node:fs";
import { copyFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import { ompBigSession } from "../../bench/omp-session";
import { runHostSuite, type SuiteResult } from "./host-suite";
import type { CodeServerInstall } from "./install-code-server";

const LISTED = Number(process.env.PI_SESSIONS_BENCH_LISTED ?? 5000);
const BIG_MB = Number(process.env.BENCH_MB ?? 100);

function smallSession(i: number): string {
  const t = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
  const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, "0")}`;
  const lines = [
    { type: "session", version: 3, id, timestamp: t, cwd: "/placeholder" },
    { type: "message", id: `u${i}`, parentId: null, timestamp: t, message: { role: "user", content: `Question number ${i} about the todo app.`, timestamp: 1 } },
    {
      type: "message",
      id: `a${i}`,
      parentId: `u${i}`,
      timestamp: t,
      message: { role: "assistant", content: [{ type: "text", text: "An answer." }], provider: "anthropic", model: "claude-sonnet-4-5", usage: { input: 1000 + i, output: 50, cacheRead: 0, cacheWrite: 0, totalTokens: 1050 + i, cost: { input: 0.003, output: 0.00075, cacheRead: 0, cacheWrite: 0, total: 0.00375 } }, stopReason: "stop", timestamp: 2 },
    },
  ];
  return lines.map((l) => JSON.stringify(l)).join("\n") + "\n";
}

/** The core bench's big session (bench/big-session.ts, which needs pi's ESM package: run as its own process). */
async function ensureBigSession(root: string, out: string, bytes: number): Promise<void> {
  if (existsSync(out)) return;
  const script = join(root, "out/bench-big-session.mjs");
  await build({
    stdin: { contents: 'import { buildBigSession } from "./bench/big-session.ts"; buildBigSession(process.argv[2], process.argv[3], Number(process.argv[4]));', resolveDir: root, loader: "ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: script,
    external: ["@mariozechner/pi-coding-agent"],
    logLevel: "warning",
  });
  const run = spawnSync(process.execPath, [script, resolve(root, "test/fixtures/pi-mono/large-session.jsonl"), out, String(bytes)], { stdio: "inherit" });
  if (run.status !== 0) throw new Error("cannot build the big session");
}

/** The first whole lines of a session up to `bytes`: a smaller session of the same shape. */
function sessionPrefix(from: string, to: string, bytes: number): void {
  const buffer = Buffer.alloc(bytes);
  const fd = openSync(from, "r");
  try {
    readSync(fd, buffer, 0, bytes, 0);
  } finally {
    closeSync(fd);
  }
  writeFileSync(to, buffer.subarray(0, buffer.lastIndexOf(10) + 1));
}

/** The fixture folder (built once): small (0.35 MB) and LISTED small sessions; the big ones are copied in at launch. */
async function benchFixture(root: string, big: string): Promise<string> {
  const dir = join(tmpdir(), `pi-sessions-bench-vscode-${BIG_MB}-${LISTED}`);
  mkdirSync(dir, { recursive: true });
  await ensureBigSession(root, big, BIG_MB * 1024 * 1024);
  const small = join(dir, "2026-01-01T00-00-02-000Z_small.jsonl");
  if (!existsSync(small)) sessionPrefix(big, small, Math.round(0.35 * 1024 * 1024));
  const have = new Set(readdirSync(dir));
  for (let i = 0; i < LISTED; i++) {
    const name = `2025-01-01T00-00-00-000Z_listed-${i}.jsonl`;
    if (!have.has(name)) writeFileSync(join(dir, name), smallSession(i));
  }
  return dir;
}

/**
 * PI_SESSIONS_BENCH_MALLOC_MMAP_THRESHOLD=<bytes>: glibc's MALLOC_MMAP_THRESHOLD_ for code-server (an
 * experiment, not a setting users have): a fixed threshold turns off glibc's dynamic one, which after a
 * large freed buffer serves later ones from the main heap, where freed memory stays in RSS.
 */
function mallocSetting(): Record<string, string> {
  const threshold = process.env.PI_SESSIONS_BENCH_MALLOC_MMAP_THRESHOLD;
  return threshold ? { MALLOC_MMAP_THRESHOLD_: threshold } : {};
}

export async function runBenchmark(install: CodeServerInstall, root: string, timeoutMs: number): Promise<SuiteResult> {
  const big = join(tmpdir(), `pi-sessions-bench-${BIG_MB * 1024 * 1024}.jsonl`);
  const fixture = await benchFixture(root, big);
  // Placed by the launcher (which points each header's cwd at the workspace); the two big ones copied in the hook.
  const names = { a: "2026-01-01T00-00-00-000Z_big-a.jsonl", b: "2026-01-01T00-00-01-000Z_big-b.jsonl" };
  const ompBig = ompBigSession(resolve(root, "test/fixtures/pi-mono/large-session.jsonl"), BIG_MB * 1024 * 1024);
  const env: Record<string, string> = { PI_SESSIONS_BENCH_PI_BIG: big, PI_SESSIONS_BENCH_OMP_BIG: ompBig, PI_SESSIONS_BENCH_RUNS: process.env.PI_SESSIONS_BENCH_RUNS ?? "5", PI_SESSIONS_BENCH_PROFILE: process.env.PI_SESSIONS_BENCH_PROFILE ?? "", PI_SESSIONS_BENCH_HEAP_SNAPSHOT: process.env.PI_SESSIONS_BENCH_HEAP_SNAPSHOT ?? "", PI_SESSIONS_BENCH_HEAP_SNAPSHOTS: process.env.PI_SESSIONS_BENCH_HEAP_SNAPSHOTS ?? "", PI_SESSIONS_BENCH_VIEW_AFTER: process.env.PI_SESSIONS_BENCH_VIEW_AFTER ?? "", PI_SESSIONS_BENCH_GREP: process.env.PI_SESSIONS_BENCH_GREP ?? "", ...mallocSetting() };
  return runHostSuite(install, "extension host benchmark", {
    root,
    extensionTestsPath: join(root, "out/test/vscode/bench/index.js"),
    sessionsFixture: fixture,
    timeoutMs,
    // The remote extension host looks for ports to forward every few seconds (reads /proc, runs `ls -l
    // /proc/*/fd/*`): 10–40 ms of host CPU that landed in random samples. Not ours: off while measuring.
    settings: { "remote.autoForwardPorts": false },
    // Filled in by beforeStart (the paths exist once the run folder does); read when code-server starts.
    env,
    beforeStart: async (folder) => {
      const sessionsDir = join(folder.agentDir, "sessions", readdirSync(join(folder.agentDir, "sessions"))[0]!);
      await copyFile(big, join(sessionsDir, names.a));
      await copyFile(big, join(sessionsDir, names.b));
      Object.assign(env, {
        PI_SESSIONS_BENCH_BIG_A: join(sessionsDir, names.a),
        PI_SESSIONS_BENCH_BIG_B: join(sessionsDir, names.b),
        PI_SESSIONS_BENCH_SMALL: join(sessionsDir, "2026-01-01T00-00-02-000Z_small.jsonl"),
      });
    },
  });
}
