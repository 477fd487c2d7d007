// When a child process of ours (fork-own-runtime.ts) is asked again after it
// failed (could not start, died, hung, answered something invalid): not during
// a back-off that grows with each failure in a row (30 s, 2 min, 10 min), and
// never again after the last one (the work stays in this process until the
// window reloads). One log line per change of state — failed (and when it is
// tried again), working again, given up — never one per request: requests
// during a back-off are answered "unavailable" without a word.

export interface ChildBackoffOptions {
  /** Waits after the 1st, 2nd, … failure in a row; a failure beyond the last one ends the retries (ms). */
  retryDelaysMs?: readonly number[];
  /** The clock (tests: a fake one). */
  now?: () => number;
  warn?: (message: string) => void;
}

export const RETRY_DELAYS_MS: readonly number[] = [30_000, 120_000, 600_000];

export class ChildBackoff {
  /** Failures in a row (a valid answer ends the row). */
  private failures = 0;
  private retryAt = 0;
  /** Since the last failure, not yet answered validly: the next success is worth a line. */
  private recovering = false;

  constructor(
    /** What the process is, for the log ("the index process"). */
    private readonly what: string,
    /** What happens meanwhile ("big sessions are read in this process"). */
    private readonly fallback: string,
    private readonly options: ChildBackoffOptions = {},
  ) {}

  private get delays(): readonly number[] {
    return this.options.retryDelaysMs ?? RETRY_DELAYS_MS;
  }

  /** Whether the process may be asked now (never failed, or its back-off is over). */
  get available(): boolean {
    if (this.failures === 0) return true;
    if (this.failures > this.delays.length) return false;
    return this.now() >= this.retryAt;
  }

  /** Off for good (until reset). */
  get givenUp(): boolean {
    return this.failures > this.delays.length;
  }

  /** The process failed (`why`): off for the next back-off, or for good after the last. */
  failed(why: string): void {
    this.failures++;
    this.recovering = true;
    const delay = this.delays[this.failures - 1];
    if (delay === undefined) {
      this.options.warn?.(`${this.what} stopped (${why}); it failed ${this.failures} times in a row and is not started again until the window reloads; ${this.fallback}`);
      return;
    }
    this.retryAt = this.now() + delay;
    this.options.warn?.(`${this.what} stopped (${why}); ${this.fallback}; tried again in ${duration(delay)}`);
  }

  /** The process answered validly: a later failure starts the back-offs anew. */
  succeeded(): void {
    if (this.recovering) this.options.warn?.(`${this.what} works again`);
    this.recovering = false;
    this.failures = 0;
  }

  /** Forgets every failure (no line). */
  reset(): void {
    this.failures = 0;
    this.recovering = false;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}

function duration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000 && ms % 1000 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}
