// pi 1.5.2's session projection (projection.ts) over a branch read lazily: which
// branch entries make up the context (the newest compaction first, its kept
// entries without system messages, everything after it) and the context edits
// in force are found from types and ids plus the few bodies they need; the
// messages of one projected entry are computed when asked for.

import type { BranchReader } from "../../context/branch-reader.js";
import { messageOf, type ContextMessage } from "../../context/context-message.js";
import type { CompactionEntry, ContextEditEntry, MessageEntry, SessionEntry } from "../../session/format/types.js";
import { projectContextEntry, type ProjectedEntry } from "./projection.js";

/** Entry types sessionEntryToContextMessages turns into messages; every other entry projects to none. */
const MESSAGE_TYPES: ReadonlySet<string> = new Set(["message", "custom_message", "branch_summary", "compaction"]);

export class BranchProjection {
  /** Branch position of each projected entry, in projection order. */
  readonly positions: number[] = [];
  private readonly edits = new Map<string, ContextEditEntry>();
  /** The newest compaction on the branch (projected first), if any. */
  readonly compaction: CompactionEntry | undefined;

  constructor(readonly branch: BranchReader) {
    const n = branch.length;
    let compactionAt = -1;
    for (let i = n - 1; i >= 0 && compactionAt < 0; i--) if (branch.typeAt(i) === "compaction") compactionAt = i;
    this.compaction = compactionAt >= 0 ? (branch.entry(compactionAt) as CompactionEntry) : undefined;
    // pi looks the compaction up by id (first match), not by position.
    let compactionIdx = -1;
    if (this.compaction) for (let i = 0; i < n && compactionIdx < 0; i++) if (branch.idAt(i) === this.compaction.id) compactionIdx = i;
    if (!this.compaction || compactionIdx < 0) {
      for (let i = 0; i < n; i++) this.positions.push(i);
    } else {
      this.positions.push(compactionAt);
      let foundFirstKept = false;
      for (let i = 0; i < compactionIdx; i++) {
        if (branch.idAt(i) === this.compaction.firstKeptEntryId) foundFirstKept = true;
        if (foundFirstKept && !this.isSystemMessageEntry(i)) this.positions.push(i);
      }
      for (let i = compactionIdx + 1; i < n; i++) this.positions.push(i);
    }
    // Latest edit wins; only edits inside the projected context count.
    for (const p of this.positions) {
      if (branch.typeAt(p) === "context_edit") {
        const edit = branch.entry(p) as ContextEditEntry;
        this.edits.set(edit.targetId, edit);
      }
    }
  }

  private isSystemMessageEntry(i: number): boolean {
    return this.branch.typeAt(i) === "message" && messageOf(this.branch.entry(i) as MessageEntry)?.role === "system";
  }

  get length(): number {
    return this.positions.length;
  }

  typeAt(k: number): string {
    return this.branch.typeAt(this.positions[k]!);
  }

  /** Whether projected entry `k` can hold messages (else it projects to none, unparsed). */
  mayHaveMessages(k: number): boolean {
    const type = this.typeAt(k);
    // An older compaction inside the kept range contributes nothing; only the newest (index 0) does.
    return MESSAGE_TYPES.has(type) && (type !== "compaction" || k === 0);
  }

  /** The messages of projected entry `k`, whose body is `entry` (read here when not given). */
  messagesAt(k: number, entry?: SessionEntry): ContextMessage[] {
    if (!this.mayHaveMessages(k)) return [];
    const source = entry ?? this.branch.entry(this.positions[k]!);
    return projectContextEntry(source, this.edits.get(source.id));
  }

  /** Projected entry `k` as projection.ts gives it. */
  entryAt(k: number): ProjectedEntry {
    const sourceEntry = this.branch.entry(this.positions[k]!);
    return { sourceEntry, messages: this.messagesAt(k, sourceEntry) };
  }

  /** Calls `visit` with the projected entries [start, end) in order; bodies are read in one pass and not kept. */
  forEach(start: number, end: number, visit: (k: number, messages: ContextMessage[]) => void): void {
    const wanted: number[] = [];
    const byPosition = new Map<number, number>();
    for (let k = Math.max(0, start); k < Math.min(end, this.length); k++) {
      if (!this.mayHaveMessages(k)) continue;
      wanted.push(this.positions[k]!);
      byPosition.set(this.positions[k]!, k);
    }
    this.branch.forEachAt(wanted, (entry, p) => {
      const k = byPosition.get(p)!;
      visit(k, this.messagesAt(k, entry));
    });
  }
}
