// pi's session ids: UUID version 7 (uuid's v7: 48-bit Unix milliseconds, then
// random bits), so file names and ids sort by creation time.
import { randomBytes } from "node:crypto";

export function newSessionId(now: Date = new Date(), random: (n: number) => Uint8Array = randomBytes): string {
  const bytes = Buffer.from(random(16));
  let ms = now.getTime();
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** pi's session file name: the header's ISO time with `:` and `.` as `-`, then the id. */
export function sessionFileName(timestamp: string, id: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${id}.jsonl`;
}
