// What the extension did, one JSON line per event, appended to the file named
// by $PI_SESSIONS_PI_LOG (unset: nothing is written). Never stdout: pi's RPC
// mode speaks JSON there. Messages are already free of keys (the core redacts).

import { appendFileSync } from "node:fs";

export class EventLog {
  private readonly file = process.env.PI_SESSIONS_PI_LOG;

  write(record: Record<string, unknown>): void {
    if (!this.file) return;
    try {
      appendFileSync(this.file, `${JSON.stringify({ time: new Date().toISOString(), ...record })}\n`);
    } catch {
      // A log that cannot be written must not break pi's compaction.
    }
  }
}
