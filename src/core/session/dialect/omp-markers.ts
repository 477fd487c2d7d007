// Whether a session was written (or resumed) by omp (spec §8, read-only tier 7):
// line 1 is omp's title slot, or it holds an entry only omp writes (an omp-only
// entry type or message role, a `model_change` with `model`, a compaction with
// `method` / `fromExtension` / `shortSummary`, a `custom` `session_exit` /
// `tool_execution_start`, an assistant with `contextSnapshot`). Types and roles
// come from the index; only the few entries that may mark omp by a field are
// parsed (and of the assistants only the last, which omp wrote if it resumed the
// file). Incremental for a live session, like pi1x-markers.ts.

import type { EntryMeta } from "../format/entry-meta.js";
import type { SessionIndex } from "../index/session-index.js";
import type { SessionEntry } from "../format/types.js";
import { OMP_CORE_CUSTOM_TYPES, OMP_ONLY_ENTRY_TYPES } from "../format/omp-entry-types.js";
import type { TitleSlotRead } from "../index/session-builder.js";

export interface OmpMarker {
  /** The marking entry; undefined for the title slot. */
  entryId?: string;
  line: number;
  /** What marks it, e.g. `title slot`, `reset_boundary entry`. */
  what: string;
}

/** Roles only omp writes (hookMessage is pi's own v2 role). */
const OMP_ROLES: ReadonlySet<string> = new Set(["developer", "pythonExecution", "fileMention"]);

const BODY_TYPES: ReadonlySet<string> = new Set(["model_change", "compaction", "custom"]);

function markerOfMeta(type: string, role: string | undefined): string | undefined {
  if (OMP_ONLY_ENTRY_TYPES.has(type)) return `${type} entry`;
  if (type === "message" && role !== undefined && OMP_ROLES.has(role)) return `${role} message`;
  return undefined;
}

/** What marks an entry's body as omp's, if anything. */
export function ompMarkOfEntry(entry: SessionEntry): string | undefined {
  const e = entry as unknown as Record<string, unknown>;
  switch (entry.type) {
    case "model_change":
      return typeof e.model === "string" ? "model_change with \"model\"" : undefined;
    case "compaction":
      if (e.method !== undefined) return "compaction with \"method\"";
      if (e.fromExtension !== undefined) return "compaction with \"fromExtension\"";
      if (e.shortSummary !== undefined) return "compaction with \"shortSummary\"";
      return undefined;
    case "custom":
      return typeof e.customType === "string" && OMP_CORE_CUSTOM_TYPES.has(e.customType) ? `custom ${e.customType} entry` : undefined;
    case "message": {
      const m = e.message as Record<string, unknown> | undefined;
      if (m && typeof m.role === "string" && OMP_ROLES.has(m.role)) return `${m.role} message`;
      return m && m.role === "assistant" && m.contextSnapshot !== undefined ? "assistant with contextSnapshot" : undefined;
    }
    default:
      return OMP_ONLY_ENTRY_TYPES.has(entry.type) ? `${entry.type} entry` : undefined;
  }
}

interface ScanState {
  scanned: number;
  marker: OmpMarker | undefined;
}
const scans = new WeakMap<SessionIndex, ScanState>();

export interface OmpMarkerSource {
  readonly index: SessionIndex;
  readonly titleSlot?: TitleSlotRead | null;
  entryAt(meta: EntryMeta): SessionEntry;
}

function bodyOf(session: OmpMarkerSource, meta: EntryMeta): SessionEntry | undefined {
  try {
    return session.entryAt(meta);
  } catch {
    return undefined; // an unreadable body is no marker; the reader reports it elsewhere
  }
}

/** The first thing that marks `session` as omp's, or undefined (pi's, as far as the file says). */
export function sessionOmpMarker(session: OmpMarkerSource): OmpMarker | undefined {
  if (session.titleSlot) return { line: session.titleSlot.location.line, what: "omp's title slot on line 1" };
  const index = session.index;
  const state = scans.get(index) ?? { scanned: 0, marker: undefined };
  if (!state.marker && state.scanned < index.size) {
    let lastAssistant = -1;
    for (let i = state.scanned; i < index.size && !state.marker; i++) {
      const type = index.typeAt(i);
      const role = index.roleAt(i);
      const what = markerOfMeta(type, role);
      if (what) {
        const meta = index.at(i);
        state.marker = { entryId: meta.id, line: meta.line, what };
      } else if (BODY_TYPES.has(type)) {
        const meta = index.at(i);
        const body = bodyOf(session, meta);
        const mark = body && ompMarkOfEntry(body);
        if (mark) state.marker = { entryId: meta.id, line: meta.line, what: mark };
      } else if (type === "message" && role === "assistant") {
        lastAssistant = i;
      }
    }
    if (!state.marker && lastAssistant >= 0) {
      const meta = index.at(lastAssistant);
      const body = bodyOf(session, meta);
      const mark = body && ompMarkOfEntry(body);
      if (mark) state.marker = { entryId: meta.id, line: meta.line, what: mark };
    }
    state.scanned = index.size;
  }
  scans.set(index, state);
  return state.marker;
}
