// Runs LiveSessionFacts.prepareAhead off the write path: in slices of a few
// milliseconds, each one after a timer, so that what else the process does (a
// pi write's refresh, the views) runs between them. For a pi 1.5 session
// without a compaction this is the one pass over the branch's bodies that the
// first context edit would otherwise make while pi writes.

import { performance } from "node:perf_hooks";

export interface PreparableAhead {
  prepareAhead(stop: () => boolean): boolean;
}

export interface PrepareAheadOptions {
  /** Work per slice (ms). */
  sliceMs?: number;
  /** Pause between slices (ms). */
  gapMs?: number;
  /** Wait before the first slice (ms): opening a session has its own work first. */
  startAfterMs?: number;
  /** Asked before each slice: false stops (the facts were replaced, the session closed). */
  wanted?: () => boolean;
}

export interface PreparingAhead {
  /** True once nothing is left to prepare; false when stopped, cancelled or the file could not be read (the next update deals with that). */
  readonly done: Promise<boolean>;
  cancel(): void;
}

export function prepareAheadInSlices(facts: PreparableAhead, options: PrepareAheadOptions = {}): PreparingAhead {
  const sliceMs = options.sliceMs ?? 8;
  const gapMs = options.gapMs ?? 4;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let settle!: (finished: boolean) => void;
  const done = new Promise<boolean>((resolve) => {
    settle = (finished) => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      resolve(finished);
    };
  });
  const schedule = (ms: number) => {
    timer = setTimeout(slice, ms);
    // Never what keeps a process alive (pi-sessions watch ends on Ctrl-C).
    timer.unref?.();
  };
  const slice = () => {
    timer = undefined;
    if (options.wanted && !options.wanted()) return settle(false);
    const deadline = performance.now() + sliceMs;
    let finished: boolean;
    try {
      finished = facts.prepareAhead(() => performance.now() >= deadline);
    } catch {
      return settle(false);
    }
    if (finished) settle(true);
    else schedule(gapMs);
  };
  schedule(options.startAfterMs ?? 0);
  return { done, cancel: () => settle(false) };
}
