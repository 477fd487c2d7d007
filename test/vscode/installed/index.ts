// Test index run inside the extension host of a code-server that has the packaged .vsix
// installed (no extensionDevelopmentPath): every *.test.js beside this file.
import { runMochaFolder } from "../mocha-run";

export async function run(): Promise<void> {
  const counts = await runMochaFolder(__dirname, { timeoutMs: 30_000 });
  if (counts.failed > 0 || counts.passed === 0) throw new Error(`installed-extension checks: ${counts.passed} passed, ${counts.failed} failed`);
}
