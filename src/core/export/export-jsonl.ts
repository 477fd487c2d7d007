// A branch as a standalone pi session file (a clone), close to pi's
// SessionManager.createBranchedSession: a new header whose parentSession is
// the source file, then the branch's entries (lines as on disk, or migrated /
// redacted when needed), then a label entry for each entry of the branch whose
// label (set from another branch) the branch's own label entries do not give.
// Unlike pi, the branch's label entries are kept: pi drops them, and an entry
// written after a label (its parentId is the label's id) would then hang from
// nothing and pi would read the clone as that entry alone.
// (The actions branch writes `fork` in core too: merge the two at merge time.)
import { randomUUID } from "node:crypto";
import type { LoadedSession } from "../session/open/open-session";
import { CURRENT_SESSION_VERSION } from "../session/format/types";
import { redactDeep, type BranchExport } from "./branch-export";

function newLabelId(taken: Set<string>): string {
  for (;;) {
    const id = randomUUID().slice(0, 8);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

export function renderJsonl(session: LoadedSession, branch: BranchExport, exportedAt: Date, sessionId: string = randomUUID()): string {
  const header = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: sessionId,
    timestamp: exportedAt.toISOString(),
    cwd: branch.cwd ?? "",
    ...(branch.sessionPath ? { parentSession: branch.sessionPath } : {}),
  };
  const lines = [JSON.stringify(header)];
  const kept = branch.entries;
  const taken = new Set(kept.map((entry) => entry.id));
  for (const entry of kept) {
    // The line as on disk keeps every field exactly; a migrated (v1/v2) or redacted entry is written from its object.
    if (session.needsMigration || branch.redacted) lines.push(JSON.stringify(entry));
    else lines.push(session.rawLine(entry.id));
  }
  // What the branch's own label entries set (replayed in order, as pi does).
  const own = new Map<string, string | undefined>();
  for (const entry of kept) if (entry.type === "label") own.set(entry.targetId, entry.label || undefined);
  let parentId = kept[kept.length - 1]?.id ?? null;
  for (const entry of kept) {
    const label = branch.labels.get(entry.id);
    if (!label || own.get(entry.id) === label.label) continue;
    const id = newLabelId(taken);
    const text = branch.redacted ? redactDeep(label.label) : label.label;
    lines.push(JSON.stringify({ type: "label", id, parentId, timestamp: label.timestamp || exportedAt.toISOString(), targetId: entry.id, label: text }));
    parentId = id;
  }
  return `${lines.join("\n")}\n`;
}
