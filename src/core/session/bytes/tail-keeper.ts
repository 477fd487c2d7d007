// The last ≤ 4 KiB of the bytes read so far (for the fingerprint).

import { FINGERPRINT_TAIL_BYTES } from "./fingerprint.js";

/** Keeps the last ≤ 4 KiB seen, for the fingerprint. */
export class TailKeeper {
  private tail = new Uint8Array(0);

  push(chunk: Uint8Array): void {
    if (chunk.length >= FINGERPRINT_TAIL_BYTES) {
      // A copy: the reader's chunk buffer is reused for the next read.
      this.tail = new Uint8Array(chunk.subarray(chunk.length - FINGERPRINT_TAIL_BYTES));
      return;
    }
    const keep = Math.min(this.tail.length, FINGERPRINT_TAIL_BYTES - chunk.length);
    const next = new Uint8Array(keep + chunk.length);
    next.set(this.tail.subarray(this.tail.length - keep), 0);
    next.set(chunk, keep);
    this.tail = next;
  }

  get bytes(): Uint8Array {
    return this.tail;
  }
}
