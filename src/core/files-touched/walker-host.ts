// What the bash walker and the command runner share: where paths resolve,
// the actions found so far, and a way to walk a nested script.

import type { FileAction } from "./actions";
import type { PathContext } from "./paths";
import type { ShellState } from "./shell-state";

export interface WalkerHost {
  readonly paths: PathContext;
  readonly actions: FileAction[];
  /** Directories the command string showed to exist (mkdir, cd targets). */
  readonly knownDirectories: Set<string>;
  /** Parses and walks a nested script (bash -c, eval); returns false when it does not parse. */
  walkScript(source: string, state: ShellState, depth: number): void;
}
