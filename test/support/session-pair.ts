// A session file read twice: by pi's SessionManager (the oracle) and by our
// side (plain JSON.parse per line, header dropped). Work on copies: pi's
// SessionManager.open rewrites v1/v2 files (migration) and broken files.

import { readFileSync } from "node:fs";
import { SessionManager } from "@mariozechner/pi-coding-agent";
import type { SessionEntry } from "../../src/core/session/format/types.js";
import type { PiBranchSource } from "./pi-oracle.js";
import type { SessionPair } from "./differential.js";

export function parseEntriesOurselves(text: string): SessionEntry[] {
  const entries: SessionEntry[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    const value = JSON.parse(line) as { type?: unknown };
    if (value.type !== "session") entries.push(value as SessionEntry);
  }
  return entries;
}

export function openPair(path: string): SessionPair {
  const sm = SessionManager.open(path);
  const piEntries = sm.getEntries() as unknown as SessionEntry[];
  const piBranch: PiBranchSource = {
    getBranch: (id) => sm.getBranch(id) as unknown as SessionEntry[],
    getEntry: (id) => sm.getEntry(id) as unknown as SessionEntry | undefined,
  };
  return { pi: piEntries, ours: parseEntriesOurselves(readFileSync(path, "utf8")), piBranch };
}
