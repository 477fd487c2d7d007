// What a command handler may do: record file actions for its arguments
// (resolved against the shell's current directory), change that directory,
// or hand the rest of its arguments to another command (wrappers) or a
// script string (`bash -c`, `eval`).

import type { Arg } from "../shell-words";

export interface CommandContext {
  /** The command's name as dispatched (basename, without a leading backslash). */
  readonly name: string;
  read(arg: Arg | undefined): void;
  write(arg: Arg | undefined): void;
  edit(arg: Arg | undefined): void;
  delete(arg: Arg | undefined): void;
  /** `rm -r X`: X if it names a file, else known files under X. */
  deleteTree(arg: Arg | undefined): void;
  /** `from` moved to `to`; `into`: `to` is a directory (true) or might be one ("maybe"). */
  move(from: Arg | undefined, to: Arg | undefined, into: boolean | "maybe"): void;
  /** A path the command shows to be a directory (mkdir). */
  directory(arg: Arg | undefined): void;
  /** `cd`: undefined (an unknown or home-less target) makes relative paths unknown. */
  chdir(arg: Arg | undefined): void;
  pushd(arg: Arg | undefined): void;
  popd(): void;
  /** Runs `fn` with relative paths based on `dir` (git -C, env -C). */
  withDirectory(dir: Arg | undefined, fn: () => void): void;
  /** Analyses `args` as a command of its own (after a wrapper such as sudo). */
  run(args: Arg[]): void;
  /**
   * Parses and analyses a script string; unknown strings are skipped. `sameShell`
   * (eval): its `cd` affects the rest of the command; otherwise (bash -c) it
   * runs in a child shell.
   */
  runScript(script: Arg | undefined, sameShell?: boolean): void;
  /** True when this name is a known directory for the current analysis (mkdir'd, cd'd). */
  isKnownDirectory(arg: Arg | undefined): boolean;
}

export type CommandHandler = (args: Arg[], cx: CommandContext) => void;

export function argText(arg: Arg | undefined): string | undefined {
  return arg?.known ? arg.value : undefined;
}

export function isDevicePath(arg: Arg | undefined): boolean {
  const text = argText(arg);
  return text !== undefined && (text === "/dev" || text.startsWith("/dev/"));
}
