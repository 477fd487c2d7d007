// Shared by the files-touched tests: load the real parser once, and read a
// command's effect as {displayPath: ops}.
import { bashCommandFilesTouched, initFilesTouched } from "../../../src/core/files-touched";

export async function loadParser(): Promise<void> {
  await initFilesTouched();
}

export function touched(command: string, cwd = "/repo"): Record<string, string> {
  const result = bashCommandFilesTouched(command, { cwd });
  return Object.fromEntries(result.files.map((f) => [f.displayPath, f.ops]));
}

export function diagnosticsOf(command: string, cwd = "/repo"): string[] {
  return bashCommandFilesTouched(command, { cwd }).diagnostics.map((d) => d.code);
}
