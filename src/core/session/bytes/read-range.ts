import { readSync } from "node:fs";

/** Up to `length` bytes at `offset` of an open file (fewer at its end); short reads are retried. Into `into` when it is long enough. */
export function readRange(fd: number, offset: number, length: number, into?: Buffer): Buffer {
  // Not zero-filled: only the bytes read are returned.
  const out = into !== undefined && into.length >= length ? into : Buffer.allocUnsafeSlow(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, out, done, length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return out.subarray(0, done);
}
