// Runs a child process to completion and hands back its output; the caller decides what a
// non-zero exit means.
import { spawn } from "node:child_process";

export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** stdout and stderr interleaved as they came. */
  output: string;
  stdout: string;
}

export interface CommandOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Print output as it arrives (long installs) instead of only keeping it. */
  echo?: boolean;
}

export function runCommand(command: string, args: readonly string[], options: CommandOptions = {}): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const chunks: string[] = [];
    const stdout: string[] = [];
    const collect = (data: Buffer, stream: NodeJS.WriteStream): void => {
      chunks.push(data.toString("utf8"));
      if (options.echo) stream.write(data);
    };
    child.stdout.on("data", (data: Buffer) => {
      stdout.push(data.toString("utf8"));
      collect(data, process.stdout);
    });
    child.stderr.on("data", (data: Buffer) => collect(data, process.stderr));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, output: chunks.join(""), stdout: stdout.join("") }));
  });
}

/** Runs the command and fails unless it exits with 0; returns its stdout. */
export async function runChecked(command: string, args: readonly string[], options: CommandOptions = {}): Promise<string> {
  const result = await runCommand(command, args, options);
  if (result.code !== 0) {
    const tail = result.output.split("\n").slice(-40).join("\n");
    throw new Error(`${command} ${args.join(" ")} exited with ${result.code ?? result.signal}\n${tail}`);
  }
  return result.stdout;
}
