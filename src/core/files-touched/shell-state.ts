// What the analysis knows about the running shell at one point of a command
// string: the current directory (undefined once it cannot be known), the
// `cd -` and pushd/popd history, and variables with literal values.

import type { Vars } from "./shell-words";

export interface ShellState {
  base: string | undefined;
  previous: string | undefined;
  stack: (string | undefined)[];
  vars: Vars;
}

export function cloneState(state: ShellState): ShellState {
  return { base: state.base, previous: state.previous, stack: [...state.stack], vars: new Map(state.vars) };
}

/** Copies `from` into `into` (after a block that ran in the same shell). */
export function assignState(into: ShellState, from: ShellState): void {
  into.base = from.base;
  into.previous = from.previous;
  into.stack = from.stack;
  into.vars = from.vars;
}

/**
 * The state after one of several alternatives ran (if/elif/else, case items,
 * a loop body that may not run): what all alternatives agree on, unknown otherwise.
 */
export function mergeStates(states: readonly ShellState[]): ShellState {
  const [first, ...others] = states;
  if (!first) throw new Error("mergeStates needs at least one state");
  const same = <T>(pick: (s: ShellState) => T): boolean => others.every((s) => pick(s) === pick(first));
  const vars: Vars = new Map();
  const names = new Set(states.flatMap((s) => [...s.vars.keys()]));
  for (const name of names) {
    const value = first.vars.get(name);
    vars.set(name, value !== undefined && others.every((s) => s.vars.get(name) === value) ? value : null);
  }
  return {
    base: same((s) => s.base) ? first.base : undefined,
    previous: same((s) => s.previous) ? first.previous : undefined,
    stack: same((s) => s.stack.join("\0")) ? [...first.stack] : [],
    vars,
  };
}
