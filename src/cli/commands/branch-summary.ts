import { formatDiagnostic } from "../../core/diagnostics";
import { runBranchSummary } from "../../core/write";
import { boolFlag, intFlag, stringFlag } from "../args";
import type { Command } from "../command";
import { UsageError } from "../errors";
import { printJson, printLines, warn } from "../output";
import { writeSemantics } from "../session-semantics";
import { loadSession, requireFileArg, resolveAgentDir, resolveCwd, resolveLeaf, resolveOmpAgentDir } from "../session-input";
import { MODEL_FLAGS, MODEL_FLAGS_USAGE, modelCallSettings, summarizerChoice, withInterrupt } from "./summary-flags";
import { counted } from "../../core/text/counted";

export const branchSummaryCommand: Command = {
  name: "branch-summary",
  usage: `branch-summary FILE --target ID [--leaf ID] ${MODEL_FLAGS_USAGE} [--replace-instructions] [--label TEXT] [--reserve-tokens N] [--pi-version 0.73|1.5] [--json]`,
  summary: "Leave the branch for --target as pi's /tree does: summarise the abandoned entries and append a branch_summary entry.",
  flags: { target: { value: true }, leaf: { value: true }, "replace-instructions": { value: false }, label: { value: true }, "reserve-tokens": { value: true }, ...MODEL_FLAGS },
  async run(ctx) {
    const file = requireFileArg(ctx);
    const targetId = stringFlag(ctx.args, "target");
    if (!targetId) throw new UsageError("'branch-summary' needs --target ID");
    const choice = summarizerChoice(ctx);
    const calls = modelCallSettings(ctx);
    const instructions = stringFlag(ctx.args, "instructions");
    const replaceInstructions = boolFlag(ctx.args, "replace-instructions");
    if (replaceInstructions && !instructions) throw new UsageError("--replace-instructions needs --instructions TEXT");
    const session = await loadSession(ctx, file);
    const leafId = resolveLeaf(ctx, session);
    resolveLeaf(ctx, session, "target");
    const { semantics, piVersion, agent } = writeSemantics(ctx, session);
    const agentDir = resolveAgentDir(ctx);
    const cwd = resolveCwd(ctx, session);
    // omp reads its branchSummary.reserveTokens from its own config.yml files.
    const ompAgentDir = resolveOmpAgentDir(ctx);
    const overrides = { branchSummary: { reserveTokens: intFlag(ctx.args, "reserve-tokens") } };
    const resolved = semantics.resolveBranchSummarySettings(semantics.settingsFrom({ pi: { agentDir, overrides }, omp: { agentDir: ompAgentDir, overrides } }, cwd));
    for (const d of resolved.diagnostics) warn(ctx, formatDiagnostic(d));
    const manifest = !boolFlag(ctx.args, "no-manifest");
    const label = stringFlag(ctx.args, "label");
    const result = await withInterrupt((signal) =>
      runBranchSummary({
        agent,
        session,
        piVersion,
        targetId,
        ...(leafId !== null ? { leafId } : {}),
        agentDir,
        ompAgentDir,
        cwd,
        settings: resolved.settings,
        summarizer: choice,
        instructions,
        replaceInstructions,
        ...(label ? { label } : {}),
        filesTouched: { compaction: manifest, branchSummary: manifest },
        signal,
        dryRun: boolFlag(ctx.args, "dry-run"),
        ...calls,
      }),
    );
    for (const w of result.warnings) warn(ctx, w);
    const written = result.entry ?? result.navigateEntry;
    if (ctx.json) {
      printJson(ctx, {
        written: result.written,
        entry: written,
        newLeafId: result.newLeafId,
        commonAncestorId: result.commonAncestorId,
        outcome: result.outcome,
        summarized: result.entry !== null,
        oldLeafId: result.oldLeafId,
        editorText: result.editorText ?? null,
        labelEntry: result.labelEntry,
        abandonedEntries: result.abandonedEntries,
        model: result.model,
        digest: result.digest,
        ...semantics.tags,
        warnings: result.warnings,
      });
      return 0;
    }
    const lines: string[] = [];
    const verb = result.written ? "written" : "dry run, nothing written";
    if (result.outcome === "unchanged") lines.push(`the leaf is already at ${targetId}; nothing to do`);
    else if (result.entry) lines.push(`branch summary ${verb}: entry ${result.entry.id} under ${result.newLeafId ?? "(root)"} (${counted(result.abandonedEntries, "entry")} left behind, common ancestor ${result.commonAncestorId ?? "none"})`);
    else lines.push(`nothing to summarise; leaf moved (${verb}) to ${result.newLeafId ?? "(root)"}`);
    if (result.model) lines.push(`model: ${result.model}${result.digest ? " (digest, no model)" : ""}`);
    const note = result.entry ? semantics.summaryWriter.entryNote(result.entry, "branch summary") : undefined;
    if (note) lines.push(note);
    if (result.editorText !== undefined) lines.push(`the target is a user message; its text, to edit and send again:`, result.editorText);
    if (!result.written && result.entry) lines.push("", result.entry.summary);
    printLines(ctx, lines);
    return 0;
  },
};
