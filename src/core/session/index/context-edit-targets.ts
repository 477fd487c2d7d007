// Which entries pi 1.x context edits point at (a `context_edit` omits its
// target from the model's context, or replaces its content, on the branches
// through the edit). Read incrementally: only context_edit entries added since
// the last call have their bodies parsed.
import type { EntryMeta } from "../format/entry-meta.js";
import type { SessionIndex } from "./session-index.js";
import type { SessionEntry } from "../format/types.js";

export interface ContextEditOfTarget {
  editId: string;
  /** null: the target is omitted; else the content the model sees instead. */
  replacement: null | { content: unknown };
}

interface ScanState {
  scanned: number;
  byTarget: Map<string, ContextEditOfTarget[]>;
}
const scans = new WeakMap<SessionIndex, ScanState>();

/** The context edits of each target, in file order. */
export function contextEditsByTarget(session: { readonly index: SessionIndex; entryAt(meta: EntryMeta): SessionEntry }): ReadonlyMap<string, readonly ContextEditOfTarget[]> {
  const index = session.index;
  const state = scans.get(index) ?? { scanned: 0, byTarget: new Map<string, ContextEditOfTarget[]>() };
  for (let i = state.scanned; i < index.size; i++) {
    if (index.typeAt(i) !== "context_edit") continue;
    const meta = index.at(i);
    let entry: SessionEntry;
    try {
      entry = session.entryAt(meta);
    } catch {
      continue;
    }
    const { targetId, replacement } = entry as { targetId?: unknown; replacement?: unknown };
    if (typeof targetId !== "string") continue;
    const edit: ContextEditOfTarget = {
      editId: meta.id,
      replacement: replacement !== null && typeof replacement === "object" ? { content: (replacement as { content?: unknown }).content } : null,
    };
    const list = state.byTarget.get(targetId) ?? [];
    list.push(edit);
    state.byTarget.set(targetId, list);
  }
  state.scanned = index.size;
  scans.set(index, state);
  return state.byTarget;
}
