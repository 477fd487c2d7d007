// Index of the real-host benchmark (npm run bench:vscode): the *.test.js beside
// this file, run inside the extension host with a long timeout.
import { runMochaFolder } from "../mocha-run";

export async function run(): Promise<void> {
  const counts = await runMochaFolder(__dirname, { timeoutMs: 900_000, grep: undefined });
  if (counts.failed > 0) throw new Error(`${counts.failed} benchmark step(s) failed`);
}
