// Whether a session was written (or resumed) by pi 1.x: any `message` with role
// `system`, any `context_edit` or `usage` entry, or a compaction that carries a
// `systemMessage`. Read from the index's per-entry metadata (type and role), so
// only compaction entries need their body; incremental for a live session.

import type { EntryMeta } from "../format/entry-meta.js";
import type { SessionIndex } from "../index/session-index.js";
import type { SessionEntry } from "../format/types.js";

export interface Pi1xMarker {
  entryId: string;
  line: number;
  /** What marks it, e.g. `context_edit entry`, `system message`. */
  what: string;
}

function mayMarkPi1x(type: string, role: string | undefined): boolean {
  return type === "context_edit" || type === "usage" || type === "compaction" || (type === "message" && role === "system");
}

function markerOfMeta(meta: EntryMeta): string | undefined {
  if (meta.type === "context_edit" || meta.type === "usage") return `${meta.type} entry`;
  if (meta.type === "message" && meta.role === "system") return "system message";
  return undefined;
}

/** The first 1.x marker among `metas`; `entryAt` reads a compaction's body (for its `systemMessage`). */
export function findPi1xMarker(
  metas: Iterable<EntryMeta>,
  entryAt?: (meta: EntryMeta) => SessionEntry | undefined,
): Pi1xMarker | undefined {
  for (const meta of metas) {
    let what = markerOfMeta(meta);
    if (!what && meta.type === "compaction" && entryAt) {
      const entry = entryAt(meta);
      if (entry?.type === "compaction" && entry.systemMessage) what = "compaction with a systemMessage";
    }
    if (what) return { entryId: meta.id, line: meta.line, what };
  }
  return undefined;
}

interface ScanState {
  scanned: number;
  marker: Pi1xMarker | undefined;
}
const scans = new WeakMap<SessionIndex, ScanState>();

/** findPi1xMarker over a session's index, scanning only entries added since the last call. */
export function sessionPi1xMarker(
  session: { readonly index: SessionIndex; entryAt(meta: EntryMeta): SessionEntry },
): Pi1xMarker | undefined {
  const index = session.index;
  const state = scans.get(index) ?? { scanned: 0, marker: undefined };
  if (!state.marker && state.scanned < index.size) {
    // Metas only for the entries that can mark pi 1.x (a big session has few).
    const fresh: EntryMeta[] = [];
    for (let i = state.scanned; i < index.size; i++) if (mayMarkPi1x(index.typeAt(i), index.roleAt(i))) fresh.push(index.at(i));
    state.marker = findPi1xMarker(fresh, (meta) => {
      try {
        return session.entryAt(meta);
      } catch {
        return undefined; // an unreadable body is no marker; the reader reports it elsewhere
      }
    });
    state.scanned = index.size;
  }
  scans.set(index, state);
  return state.marker;
}
