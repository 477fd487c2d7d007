// The catalogue's sums ahead (sum-ahead.ts) computed in this process by the
// function the fill child runs (sumAnswerOf), for the property tests: they
// decide when an answer arrives. Stands in for the child process only; the
// real child is tested in test/unit/catalogue/sum-ahead.test.ts.
import type { BulkAnswer, BulkReader, StaleFile } from "../../src/core/catalogue/bulk-reader.js";
import { rowVersionPolicy } from "../../src/core/catalogue/catalogue-row.js";
import type { CatalogueOptions } from "../../src/core/catalogue/session-catalogue.js";
import { sumAnswerOf } from "../../src/core/catalogue/sum-ahead.js";

export class InProcessSums implements BulkReader {
  /** Answers are computed when asked (the file up to the size asked) and held until `release` while this is set. */
  hold = false;
  asked = 0;
  /** Ends without answering (a child that stops early). */
  drop = false;
  private readonly waiting: (() => void)[] = [];
  /** Released before the answers were asked for: the next ones pass. */
  private released = false;

  wants(): boolean {
    return false;
  }

  // eslint-disable-next-line require-yield
  async *read(): AsyncGenerator<BulkAnswer> {
    return;
  }

  async *sums(files: readonly StaleFile[], options: CatalogueOptions): AsyncGenerator<BulkAnswer> {
    this.asked += files.length;
    const versionOf = rowVersionPolicy(options);
    const answers: BulkAnswer[] = [];
    for (const { path, size } of files) {
      try {
        answers.push(sumAnswerOf(path, versionOf, size));
      } catch {
        answers.push({ kind: "unreadable", path });
      }
    }
    if (this.hold && !this.released) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.released = false;
    if (!this.drop) yield* answers;
    yield { kind: "done", cpuMs: 0 };
  }

  /** Lets the held answers through. */
  release(): void {
    if (this.waiting.length === 0) this.released = true;
    for (const open of this.waiting.splice(0)) open();
  }
}
