// Runs the CLI in-process with captured output (the same runCli the bin calls).
import { runCli } from "../../../src/cli/main";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

export async function cli(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliRun> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { ...process.env, ...options.env },
    processCwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stderr, json: () => JSON.parse(stdout) };
}
