// The branch as omp's buildSessionContext and context usage read it, with only
// the bodies they read parsed: every entry that sets state (thinking level,
// model, mode, compactions, custom entries: omp's context notebook), the
// context's own range — after the latest `/clear`, or a plain compaction's kept
// range on (ompRecountStart's rules), its messages — and the newest assistant
// answer (the model, when no model_change names one). Every other entry is a
// stub of its type and id, all omp's functions look at of those. A
// compaction that replays a provider's history or rolls the context over
// reads the whole branch.

import type { BranchReader } from "../../context/branch-reader.js";
import type { SessionEntry } from "../../session/format/types.js";
import { isRecord, type OmpMessage } from "./messages.js";

/** Entry types whose bodies buildSessionContext reads wherever they are on the branch. */
const STATE_TYPES: ReadonlySet<string> = new Set(["thinking_level_change", "model_change", "compaction", "mode_change", "custom"]);
/** And in the context's range: the entries that become messages. */
const RANGE_TYPES: ReadonlySet<string> = new Set([...STATE_TYPES, "message", "custom_message", "branch_summary"]);

/** A compaction whose context is its summary, its kept range and what follows. */
export function isPlainCompaction(e: OmpMessage): boolean {
  return (
    typeof e.firstKeptEntryId === "string" &&
    !isRecord(e.preserveData?.openaiRemoteCompaction) &&
    !isRecord(e.preserveData?.anthropicCompaction) &&
    !(isRecord(e.details) && e.details.kind === "experimental-context-rollover")
  );
}

export function ompContextPath(branch: BranchReader, loaded: (entry: SessionEntry) => OmpMessage): SessionEntry[] {
  const n = branch.length;
  const path = new Array<SessionEntry>(n);
  let reset = -1;
  let compaction = -1;
  for (let p = n - 1; p >= 0 && reset < 0; p--) {
    const type = branch.typeAt(p);
    if (type === "reset_boundary") reset = p;
    else if (type === "compaction" && compaction < 0) compaction = p;
  }
  let start = 0;
  if (reset > compaction) start = reset;
  else if (compaction >= 0) {
    const c = loaded(branch.entry(compaction));
    if (isPlainCompaction(c)) {
      let kept = -1;
      for (let p = 0; p < compaction && kept < 0; p++) if (branch.idAt(p) === c.firstKeptEntryId) kept = p;
      start = kept >= 0 ? kept : compaction;
      for (let p = reset + 1; p < start; p++) {
        if (branch.typeAt(p) === "custom") {
          start = p;
          break;
        }
      }
    }
  }
  let explicitModel = false;
  branch.forEach(0, start, (type) => STATE_TYPES.has(type), (entry, p) => {
    path[p] = entry;
    if (entry.type === "model_change" && (entry as { model?: unknown }).model && ((entry as { role?: string }).role ?? "default") === "default") explicitModel = true;
  });
  branch.forEach(start, n, (type) => RANGE_TYPES.has(type), (entry, p) => {
    path[p] = entry;
    if (entry.type === "model_change" && (entry as { model?: unknown }).model && ((entry as { role?: string }).role ?? "default") === "default") explicitModel = true;
  });
  let sawAssistant = false;
  for (let p = n - 1; p >= start && !sawAssistant; p--) sawAssistant = path[p]?.type === "message" && (path[p] as { message?: { role?: string } }).message?.role === "assistant";
  for (let p = start - 1; p >= 0 && !explicitModel && !sawAssistant; p--) {
    if (branch.typeAt(p) !== "message") continue;
    const entry = branch.entry(p);
    if ((entry as { message?: { role?: string } }).message?.role !== "assistant") continue;
    path[p] = entry;
    sawAssistant = true;
  }
  for (let p = 0; p < n; p++) if (!path[p]) path[p] = { type: branch.typeAt(p), id: branch.idAt(p), parentId: null } as unknown as SessionEntry;
  return path;
}
