// Runs one simple command: finds its handler by name and gives it a
// CommandContext bound to the current shell state, which resolves paths
// against the current directory and records actions.

import type { FileAction } from "./actions";
import type { WalkerHost } from "./bash-walker";
import { commandHandler } from "./commands/table";
import type { CommandContext } from "./commands/context";
import { basename, joinPath, looksLikeFile, resolvePath } from "./paths";
import type { Arg } from "./shell-words";
import type { ShellState } from "./shell-state";
import { cloneState } from "./shell-state";

const MAX_NESTING = 8;

export class CommandRunner {
  /** Kept so its hidden class outlives a full GC (see \`kept\` in analyze-bash.ts). */
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
    this.lastContext = this.context(name, state, nesting);
    handler(words.slice(1), this.lastContext);
  }

  private context(name: string, state: ShellState, nesting: number): CommandContext {
    const runner = this;
    const setBase = (path: string | undefined) => {
      state.previous = state.base;
      state.base = path;
      if (path !== undefined) {
        runner.host.knownDirectories.add(path);
        runner.emit({ kind: "directory", path });
      }
    };
    return {
      name,
      read: (arg) => runner.touch("R", arg, state),
      write: (arg) => runner.touch("W", arg, state),
      edit: (arg) => runner.touch("E", arg, state),
      delete: (arg) => runner.touch("D", arg, state),
      deleteTree(arg) {
        const path = runner.resolve(arg, state);
        if (path === undefined) return;
        if (arg?.known && looksLikeFile(arg.value) && !runner.host.knownDirectories.has(path)) runner.emit({ kind: "touch", op: "D", path });
        else runner.emit({ kind: "delete-tree", path });
      },
      move(fromArg, toArg, into) {
        const from = runner.resolve(fromArg, state);
        const to = runner.resolve(toArg, state);
        if (from === undefined || to === undefined || from === to) return;
        const intoDir = into === true || runner.host.knownDirectories.has(to);
        runner.emit({ kind: "move", from, to: intoDir ? joinPath(to, basename(from)) : to, into: intoDir ? false : into });
      },
      directory(arg) {
        const path = runner.resolve(arg, state);
        if (path === undefined) return;
        runner.host.knownDirectories.add(path);
        runner.emit({ kind: "directory", path });
      },
      chdir(arg) {
        if (arg?.known && arg.value === "-") {
          const back = state.previous;
          state.previous = state.base;
          state.base = back;
          return;
        }
        setBase(arg?.known ? resolvePath(arg.value, state.base, runner.host.paths) : undefined);
      },
      pushd(arg) {
        const from = state.base;
        setBase(arg?.known ? resolvePath(arg.value, state.base, runner.host.paths) : undefined);
        state.stack.push(from);
      },
      popd() {
        if (state.stack.length === 0) return;
        setBase(state.stack.pop());
      },
      withDirectory(dirArg, fn) {
        const saved = state.base;
        state.base = dirArg?.known ? resolvePath(dirArg.value, state.base, runner.host.paths) : undefined;
        try {
          fn();
        } finally {
          state.base = saved;
        }
      },
      run: (args) => runner.run(args, state, nesting + 1),
      runScript(script, sameShell) {
        if (!script?.known || runner.depth + nesting >= MAX_NESTING) return;
        runner.host.walkScript(script.value, sameShell ? state : cloneState(state), runner.depth + nesting + 1);
      },
      isKnownDirectory(arg) {
        const path = runner.resolve(arg, state);
        return path !== undefined && runner.host.knownDirectories.has(path);
      },
    };
  }
}
