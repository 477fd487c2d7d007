import type { FlagSpec, ParsedArgs } from "./args";

export interface CliIo {
  stdout: (text: string) => void;
  /** Bytes for stdout (UTF-8); when absent, they are decoded and given to `stdout`. */
  stdoutBytes?: (bytes: Uint8Array) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  processCwd: string;
}

export interface CommandContext {
  args: ParsedArgs;
  io: CliIo;
  json: boolean;
}

export interface Command {
  name: string;
  usage: string;
  summary: string;
  flags: Record<string, FlagSpec>;
  /** Returns the exit code (0 unless the command decides otherwise). */
  run(ctx: CommandContext): Promise<number>;
}
