// Test index run inside the extension host (extensionTestsPath): every *.test.js beside
// this file. run() rejects when a test fails, which makes the workbench exit with code 1.
import { runMochaFolder } from "../mocha-run";

export async function run(): Promise<void> {
  const grep = process.env.PI_SESSIONS_VSCODE_GREP;
  const counts = await runMochaFolder(__dirname, { timeoutMs: 30_000, grep });
  if (counts.failed > 0) throw new Error(`${counts.failed} extension host test(s) failed`);
  if (counts.passed === 0 && !grep) throw new Error("no extension host test ran");
}
