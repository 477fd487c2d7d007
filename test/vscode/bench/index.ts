// Index of the real-host benchmark (npm run bench:vscode): the *.test.js beside
// this file, run inside the extension host with a long timeout.
import { runMochaFolder } from "../mocha-run";

export async function run(): Promise<void> {
  // PI_SESSIONS_BENCH_GREP: only the steps whose title matches (e.g. "Usage").
  const counts = await runMochaFolder(__dirname, { timeoutMs: 900_000, grep: process.env.PI_SESSIONS_BENCH_GREP || undefined });
  if (counts.failed > 0) throw new Error(`${counts.failed} benchmark step(s) failed`);
}
