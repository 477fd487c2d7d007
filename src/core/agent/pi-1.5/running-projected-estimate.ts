// pi 1.5.2's pure estimate of a branch without a compaction
// (estimateProjectionWithoutUsage on buildSessionProjection's messages), kept as
// a running sum while entries are fed in branch order: each entry is projected
// (projectContextEntry with its latest edit so far) and estimated once, and a
// context_edit projects only its target again and adjusts the sum by the
// difference. The current system message is replayed from the system messages
// alone (getCurrentSystemMessage only looks at those).

import { isObject, type ContextMessage } from "../../context/context-message.js";
import type { ContextEditEntry, SessionEntry } from "../../session/format/types.js";
import type { ContextUsage } from "../../tokens/context-usage.js";
import type { RunningBranch, RunningUsage } from "../../tokens/context-token-rule.js";
import { estimateTokens } from "./estimate-tokens.js";
import { projectContextEntry } from "./projection.js";
import { getCurrentSystemMessage } from "./system-message.js";

const isSystem = (message: ContextMessage): boolean => isObject(message) && message.role === "system";

export class RunningProjectedEstimate implements RunningUsage {
  private readonly edits = new Map<string, ContextEditEntry>();
  /** By position: the non-system estimate and the message count of the entry's projection. */
  private estimates = new Float64Array(1024);
  private messages = new Int32Array(1024);
  private fed = 0;
  private estimateTotal = 0;
  private messageTotal = 0;
  /** Projected system messages by position (an edit may restore one: sorted when replayed). */
  private readonly systemAt = new Map<number, ContextMessage[]>();
  private systemEstimate: number | undefined = 0;
  /** Edits whose target was not on the branch before them: pi applies one to a later entry that takes that id. */
  private dangling = 0;

  constructor(private readonly branch: RunningBranch) {}

  get length(): number {
    return this.fed;
  }

  append(entry: SessionEntry): void {
    const position = this.fed;
    if (position === this.estimates.length) {
      const estimates = new Float64Array(position * 2);
      estimates.set(this.estimates);
      this.estimates = estimates;
      const messages = new Int32Array(position * 2);
      messages.set(this.messages);
      this.messages = messages;
    }
    this.fed++;
    if (entry.type === "context_edit") this.edits.set(entry.targetId, entry);
    this.project(position, entry);
    if (entry.type !== "context_edit" || typeof entry.targetId !== "string") return;
    const target = this.branch.positionOf(entry.targetId);
    if (target >= 0 && target < position) {
      this.estimateTotal -= this.estimates[target]!;
      this.messageTotal -= this.messages[target]!;
      this.project(target, this.branch.entryAt(target));
    } else this.dangling++;
  }

  /**
   * The sums (non-system estimate, projected messages, the current system message's estimate) and the
   * edit count whose target was not before them; for a catalogue row to carry the count forward.
   */
  totals(): { estimate: number; messages: number; system: number; danglingEdits: number } {
    const usage = this.usage();
    return { estimate: this.estimateTotal, messages: this.messageTotal, system: usage.tokens - this.estimateTotal, danglingEdits: this.dangling };
  }

  /** The non-system estimate and projected message count of the entry at a position, its latest edit so far applied. */
  entryTotals(position: number): { estimate: number; messages: number } {
    return { estimate: this.estimates[position]!, messages: this.messages[position]! };
  }

  private project(position: number, entry: SessionEntry): void {
    const projected = projectContextEntry(entry, this.edits.get(entry.id));
    let estimate = 0;
    const system: ContextMessage[] = [];
    for (const message of projected) {
      if (isSystem(message)) system.push(message);
      else estimate += estimateTokens(message);
    }
    this.estimates[position] = estimate;
    this.messages[position] = projected.length;
    this.estimateTotal += estimate;
    this.messageTotal += projected.length;
    if (system.length > 0 || this.systemAt.has(position)) {
      this.systemAt.set(position, system);
      this.systemEstimate = undefined;
    }
  }

  usage(): ContextUsage {
    if (this.systemEstimate === undefined) {
      const inOrder = [...this.systemAt].sort((a, b) => a[0] - b[0]);
      const current = getCurrentSystemMessage(inOrder.flatMap(([, messages]) => messages));
      this.systemEstimate = current ? estimateTokens(current) : 0;
    }
    return { tokens: this.systemEstimate + this.estimateTotal, source: "estimate", messageCount: this.messageTotal };
  }
}
