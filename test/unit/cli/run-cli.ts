// Runs the CLI in-process with captured output (the same runCli the bin calls).
import { runCli } from "../../../src/cli/main";

export interface CliRun {
  code: number;
  stdout: string;
  /** stdout as the bytes written (UTF-8 of the strings, and the bytes given as bytes). */
  stdoutBytes: Buffer;
  stderr: string;
  json<T = any>(): T;
}

export async function cli(args: string[], options: { env?: Record<string, string | undefined>; cwd?: string } = {}): Promise<CliRun> {
  let stdout = "";
  const bytes: Buffer[] = [];
  let stderr = "";
  const code = await runCli(args, {
    stdout: (t) => {
      stdout += t;
      bytes.push(Buffer.from(t, "utf8"));
    },
    stdoutBytes: (b) => {
      stdout += Buffer.from(b).toString("utf8");
      bytes.push(Buffer.from(b));
    },
    stderr: (t) => (stderr += t),
    env: { ...process.env, ...options.env },
    processCwd: options.cwd ?? process.cwd(),
  });
  return { code, stdout, stdoutBytes: Buffer.concat(bytes), stderr, json: () => JSON.parse(stdout) };
}
