import { runNavigate, undoCompaction, type NavigateResult } from "../../core/write";
import { boolFlag, stringFlag } from "../args";
import type { Command } from "../command";
import { UsageError } from "../errors";
import { printJson, printLines } from "../output";
import { loadSession, requireFileArg, resolveLeaf } from "../session-input";
import { writeSemantics } from "../session-semantics";
import { withInterrupt } from "./summary-flags";

export const navigateCommand: Command = {
  name: "navigate",
  usage: "navigate FILE (--target ID | --undo-compaction [--compaction ID]) [--leaf ID] [--label TEXT] [--dry-run] [--pi-version 0.73|1.5] [--json]",
  summary: "Move the leaf without a summary, persisted so pi resumes there; --undo-compaction moves back to before a compaction.",
  flags: {
    target: { value: true },
    leaf: { value: true },
    label: { value: true },
    "undo-compaction": { value: false },
    compaction: { value: true },
    "dry-run": { value: false },
  },
  async run(ctx) {
    const file = requireFileArg(ctx);
    const targetId = stringFlag(ctx.args, "target");
    const undo = boolFlag(ctx.args, "undo-compaction");
    if (undo === (targetId !== undefined)) throw new UsageError("'navigate' needs either --target ID or --undo-compaction");
    if (!undo && stringFlag(ctx.args, "compaction") !== undefined) throw new UsageError("--compaction goes with --undo-compaction");
    if (undo && stringFlag(ctx.args, "label") !== undefined) throw new UsageError("--label goes with --target");
    const session = await loadSession(ctx, file);
    const leafId = resolveLeaf(ctx, session) ?? undefined;
    const { semantics, piVersion, agent } = writeSemantics(ctx, session);
    const dryRun = boolFlag(ctx.args, "dry-run");
    const label = stringFlag(ctx.args, "label");
    let result: NavigateResult & { compactionId?: string };
    if (undo) {
      const compactionId = stringFlag(ctx.args, "compaction");
      const undone = await withInterrupt(async () => undoCompaction({ session, piVersion, leafId, dryRun, ...(compactionId ? { compactionId } : {}) }));
      result = { ...undone, compactionId: undone.compaction.id };
    } else {
      result = await withInterrupt(async () => runNavigate({ session, piVersion, agent, targetId: targetId!, leafId, dryRun, ...(label ? { label } : {}) }));
    }
    if (ctx.json) {
      printJson(ctx, {
        written: result.written,
        entry: result.entry,
        newLeafId: result.newLeafId,
        outcome: result.outcome,
        oldLeafId: result.oldLeafId,
        editorText: result.editorText ?? null,
        labelEntry: result.labelEntry,
        ...semantics.tags,
        ...(result.compactionId ? { undoneCompactionId: result.compactionId } : {}),
      });
      return 0;
    }
    const where = result.newLeafId ?? "(before the first entry)";
    const lines =
      result.outcome === "unchanged"
        ? [`pi already resumes at ${where}; nothing written`]
        : [
            `${result.compactionId ? `compaction ${result.compactionId} undone: ` : ""}leaf ${result.written ? "moved" : "would move (dry run, nothing written)"} to ${where}${result.entry ? ` (navigation entry ${result.entry.id})` : ""}`,
          ];
    if (result.editorText !== undefined) lines.push("the target is a user message; its text, to edit and send again:", result.editorText);
    printLines(ctx, lines);
    return 0;
  },
};
