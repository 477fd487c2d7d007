// Prepares the live facts of opened sessions ahead, in the background: for a
// pi 1.5 session without a compaction, the first context edit pi writes would
// otherwise read every body on the branch during that write (≈ 1.3 s of host
// CPU on a 100 MB session). Slices of a few ms, started a moment after the
// session opens, stopped when its facts are replaced or dropped.
import type { LiveSessionFacts } from "../core/live/live-facts";
import { prepareAheadInSlices, type PreparingAhead } from "../core/live/prepare-ahead";

/** Opening a session has its own work first (first rows, status bar). */
const START_AFTER_MS = 500;

export class FactsPreparer {
  private readonly underway = new Map<string, { facts: LiveSessionFacts; preparing: PreparingAhead }>();

  constructor(private readonly isCurrent: (path: string, facts: LiveSessionFacts) => boolean) {}

  /** After the facts of `path` were made or updated: prepare them ahead, unless done or under way. */
  after(path: string, facts: LiveSessionFacts): void {
    const current = this.underway.get(path);
    if (current?.facts === facts) return;
    current?.preparing.cancel();
    this.underway.delete(path);
    if (facts.preparedAhead) return;
    const preparing = prepareAheadInSlices(facts, { startAfterMs: START_AFTER_MS, wanted: () => this.isCurrent(path, facts) });
    this.underway.set(path, { facts, preparing });
    void preparing.done.then(() => {
      if (this.underway.get(path)?.preparing === preparing) this.underway.delete(path);
    });
  }

  /** Whether a preparation is running for `path` (for tests). */
  isPreparing(path: string): boolean {
    return this.underway.has(path);
  }

  dispose(): void {
    for (const { preparing } of this.underway.values()) preparing.cancel();
    this.underway.clear();
  }
}
