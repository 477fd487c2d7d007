// Runs one simple command: finds its handler by name and gives it a
// CommandContext bound to the current shell state, which resolves paths
// against the current directory and records actions.

import type { FileAction } from "./actions";
import type { WalkerHost } from "./walker-host";
import { commandHandler } from "./commands/table";
import type { CommandContext } from "./commands/context";
import { basename, joinPath, looksLikeFile, resolvePath } from "./paths";
import type { Arg } from "./shell-words";
import type { ShellState } from "./shell-state";
import { cloneState } from "./shell-state";

const MAX_NESTING = 8;

export class CommandRunner {
  /** Kept so its hidden class outlives a full GC (see `kept` in analyze-bash.ts). */
  private lastContext: CommandContext | undefined;

  constructor(
    private readonly host: WalkerHost,
    private readonly depth: number,
  ) {}

  private emit(action: FileAction): void {
    this.host.actions.push(action);
  }

  resolve(arg: Arg | undefined, state: ShellState): string | undefined {
    if (!arg || !arg.known || arg.value === "-" || arg.value === "") return undefined;
    const path = resolvePath(arg.value, state.base, this.host.paths);
    if (path === undefined || path === "/dev" || path.startsWith("/dev/")) return undefined;
    return path;
  }

  touch(op: "R" | "W" | "E" | "D", arg: Arg | undefined, state: ShellState): void {
    const path = this.resolve(arg, state);
    if (path !== undefined) this.emit({ kind: "touch", op, path });
  }

  run(words: Arg[], state: ShellState, nesting = 0): void {
    const first = words[0];
    if (!first || !first.known || nesting > MAX_NESTING) return;
    const name = first.value.includes("/") ? basename(first.value) : first.value;
    const handler = commandHandler(name);
    if (!handler) return;
    this.lastContext = new RunContext(this, name, state, nesting);
    handler(words.slice(1), this.lastContext);
  }

  /** The current directory changes to `path` (undefined: unknown). */
  setBase(state: ShellState, path: string | undefined): void {
    state.previous = state.base;
    state.base = path;
    if (path !== undefined) {
      this.host.knownDirectories.add(path);
      this.emit({ kind: "directory", path });
    }
  }

  get paths(): WalkerHost["paths"] {
    return this.host.paths;
  }

  get knownDirectories(): Set<string> {
    return this.host.knownDirectories;
  }

  walkScript(script: string, state: ShellState, nesting: number): void {
    this.host.walkScript(script, state, this.depth + nesting + 1);
  }

  canNest(nesting: number): boolean {
    return this.depth + nesting < MAX_NESTING;
  }

  record(action: FileAction): void {
    this.emit(action);
  }
}

// One object per command with its methods on the prototype (a context of
// closures cost fifteen allocations per command).
class RunContext implements CommandContext {
  constructor(
    private readonly runner: CommandRunner,
    readonly name: string,
    private readonly state: ShellState,
    private readonly nesting: number,
  ) {}

  read(arg: Arg | undefined): void {
    this.runner.touch("R", arg, this.state);
  }

  write(arg: Arg | undefined): void {
    this.runner.touch("W", arg, this.state);
  }

  edit(arg: Arg | undefined): void {
    this.runner.touch("E", arg, this.state);
  }

  delete(arg: Arg | undefined): void {
    this.runner.touch("D", arg, this.state);
  }

  deleteTree(arg: Arg | undefined): void {
    const path = this.runner.resolve(arg, this.state);
    if (path === undefined) return;
    if (arg?.known && looksLikeFile(arg.value) && !this.runner.knownDirectories.has(path)) this.runner.record({ kind: "touch", op: "D", path });
    else this.runner.record({ kind: "delete-tree", path });
  }

  move(fromArg: Arg | undefined, toArg: Arg | undefined, into: boolean | "maybe"): void {
    const from = this.runner.resolve(fromArg, this.state);
    const to = this.runner.resolve(toArg, this.state);
    if (from === undefined || to === undefined || from === to) return;
    const intoDir = into === true || this.runner.knownDirectories.has(to);
    this.runner.record({ kind: "move", from, to: intoDir ? joinPath(to, basename(from)) : to, into: intoDir ? false : into });
  }

  directory(arg: Arg | undefined): void {
    const path = this.runner.resolve(arg, this.state);
    if (path === undefined) return;
    this.runner.knownDirectories.add(path);
    this.runner.record({ kind: "directory", path });
  }

  chdir(arg: Arg | undefined): void {
    const state = this.state;
    if (arg?.known && arg.value === "-") {
      const back = state.previous;
      state.previous = state.base;
      state.base = back;
      return;
    }
    this.runner.setBase(state, arg?.known ? resolvePath(arg.value, state.base, this.runner.paths) : undefined);
  }

  pushd(arg: Arg | undefined): void {
    const from = this.state.base;
    this.runner.setBase(this.state, arg?.known ? resolvePath(arg.value, this.state.base, this.runner.paths) : undefined);
    this.state.stack.push(from);
  }

  popd(): void {
    if (this.state.stack.length === 0) return;
    this.runner.setBase(this.state, this.state.stack.pop());
  }

  withDirectory(dirArg: Arg | undefined, fn: () => void): void {
    const saved = this.state.base;
    this.state.base = dirArg?.known ? resolvePath(dirArg.value, this.state.base, this.runner.paths) : undefined;
    try {
      fn();
    } finally {
      this.state.base = saved;
    }
  }

  run(args: Arg[]): void {
    this.runner.run(args, this.state, this.nesting + 1);
  }

  runScript(script: Arg | undefined, sameShell?: boolean): void {
    if (!script?.known || !this.runner.canNest(this.nesting)) return;
    this.runner.walkScript(script.value, sameShell ? this.state : cloneState(this.state), this.nesting);
  }

  isKnownDirectory(arg: Arg | undefined): boolean {
    const path = this.runner.resolve(arg, this.state);
    return path !== undefined && this.runner.knownDirectories.has(path);
  }
}
