// How an agent writes a fork (a new session file holding one branch of
// another): what it refuses, the new header, what goes before it, the time a
// carried label keeps. Pure: write/fork-session.ts reads the source, re-chains
// the branch, finds the folder and writes the file; this says what differs
// between the agents. pi's (0.73 and 1.5 write the same: pi 1.5.2's
// createBranchedSession, which pi 0.73.1 loads with the same result).

import type { TitleSlot } from "../session/format/title-slot.js";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../session/format/types.js";

/** What a fork writer reads of the source file. */
export interface ForkSource {
  /** The source file. */
  path: string;
  /** Its title slot (line 1 of an omp file), or null. */
  titleSlot: TitleSlot | null;
  header: SessionHeader;
}

/** The new file's header fields every agent writes. */
export interface ForkHeaderBase {
  id: string;
  timestamp: string;
  cwd: string;
  /** The source file, resolved. */
  parentSession: string;
}

/** A write an agent would not make, with a code and a one-line message naming the file. */
export interface WriterRefusal {
  code: string;
  message: string;
}

export interface ForkWriter {
  /** Why this agent does not fork the source at all (pi: a file opening with omp's title slot), or undefined. */
  refuseSource(source: ForkSource): WriterRefusal | undefined;
  /** Why this agent does not fork the branch `path` (root → `atId`), or undefined (pi: no assistant message on it yet). */
  refuseBranch(source: ForkSource, atId: string, path: readonly SessionEntry[]): WriterRefusal | undefined;
  /** The new file's header (omp: with the source's title). */
  header(base: ForkHeaderBase, source: ForkSource): SessionHeader;
  /** The time a label entry carried into the fork keeps (pi: its own; omp: the fork's). */
  labelTimestamp(original: unknown, forkTime: string): unknown;
  /** The line before the header (omp: its title slot, holding the source's title), or undefined. */
  titleSlot(source: ForkSource, forkTime: string): string | undefined;
}

function hasAssistantMessage(path: readonly SessionEntry[]): boolean {
  return path.some((e) => e.type === "message" && (e.message as { role?: unknown } | undefined)?.role === "assistant");
}

/** pi's fork: pi 1.5.2's createBranchedSession. */
export const PI_FORK_WRITER: ForkWriter = Object.freeze({
  refuseSource: (source) =>
    source.titleSlot ? { code: "omp-title-slot", message: `${source.path}:1: cannot fork with pi's rules: line 1 is omp's title slot (an omp session)` } : undefined,
  // pi writes the file only once the branch holds a conversation; pi 0.73 needs an
  // assistant message for it (resuming a file without one writes its header twice).
  refuseBranch: (source, atId, path) =>
    hasAssistantMessage(path)
      ? undefined
      : {
          code: "no-conversation",
          message: `${source.path}: cannot fork at ${atId}: the branch up to it has no assistant message; pi creates no session file before one (and pi 0.73 would write the header twice when resuming such a file)`,
        },
  header: (base) => ({ type: "session", version: CURRENT_SESSION_VERSION, id: base.id, timestamp: base.timestamp, cwd: base.cwd, parentSession: base.parentSession }),
  labelTimestamp: (original) => original,
  titleSlot: () => undefined,
} satisfies ForkWriter);
