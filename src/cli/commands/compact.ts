import { formatDiagnostic } from "../../core/diagnostics";
import { InvalidSettingError } from "../../core/settings";
import { runCompaction } from "../../core/write";
import { boolFlag, intFlag, stringFlag } from "../args";
import type { Command } from "../command";
import { CliError, EXIT_BAD_INPUT } from "../errors";
import { printJson, printLines, warn } from "../output";
import { writeSemantics } from "../session-semantics";
import { loadSession, requireFileArg, resolveAgentDir, resolveCwd, resolveLeaf, resolveOmpAgentDir } from "../session-input";
import { MODEL_FLAGS, MODEL_FLAGS_USAGE, modelCallSettings, summarizerChoice, withInterrupt } from "./summary-flags";

export const compactCommand: Command = {
  name: "compact",
  usage: `compact FILE [--leaf ID] ${MODEL_FLAGS_USAGE} [--keep-recent-tokens N] [--reserve-tokens N] [--pi-version 0.73|1.5] [--json]`,
  summary: "Compact the branch ending at the leaf: summarise the older part and append one compaction entry.",
  flags: { leaf: { value: true }, "keep-recent-tokens": { value: true }, "reserve-tokens": { value: true }, ...MODEL_FLAGS },
  async run(ctx) {
    const file = requireFileArg(ctx);
    const choice = summarizerChoice(ctx);
    const calls = modelCallSettings(ctx);
    const session = await loadSession(ctx, file);
    const leafId = resolveLeaf(ctx, session);
    const agentDir = resolveAgentDir(ctx);
    const cwd = resolveCwd(ctx, session);
    const ompDir = resolveOmpAgentDir(ctx);
    const { semantics, piVersion, agent } = writeSemantics(ctx, session);
    // pi 1.5 applies compaction.modelOverrides for the model in use: the branch's model.
    const model = semantics.buildSessionContext(session.pathTo(leafId)).model;
    let resolved;
    try {
      // The flags go over whichever agent's settings files apply.
      const overrides = { compaction: { keepRecentTokens: intFlag(ctx.args, "keep-recent-tokens"), reserveTokens: intFlag(ctx.args, "reserve-tokens") } };
      resolved = semantics.resolveCompactionSettings(
        semantics.settingsFrom({ pi: { agentDir, overrides }, omp: { agentDir: ompDir, overrides } }, cwd),
        model ? `${model.provider}/${model.modelId}` : undefined,
      );
    } catch (error) {
      if (error instanceof InvalidSettingError) throw new CliError(`${error.file ?? "settings"}: ${error.message}`, EXIT_BAD_INPUT);
      throw error;
    }
    for (const d of resolved.diagnostics) warn(ctx, formatDiagnostic(d));
    const dryRun = boolFlag(ctx.args, "dry-run");
    const manifest = !boolFlag(ctx.args, "no-manifest");
    const result = await withInterrupt((signal) =>
      runCompaction({
        session,
        piVersion,
        agent,
        ...(leafId !== null ? { leafId } : {}),
        agentDir,
        ompAgentDir: ompDir,
        cwd,
        settings: resolved.settings,
        summarizer: choice,
        instructions: stringFlag(ctx.args, "instructions"),
        filesTouched: { compaction: manifest, branchSummary: manifest },
        signal,
        dryRun,
        ...calls,
      }),
    );
    for (const w of result.warnings) warn(ctx, w);
    if (ctx.json) {
      printJson(ctx, {
        written: result.written,
        entry: result.entry,
        tokensBefore: result.tokensBefore,
        tokensAfter: result.tokensAfter,
        model: result.model,
        outcome: result.outcome,
        leafId: result.leafId,
        digest: result.digest,
        ...semantics.tags,
        warnings: result.warnings,
      });
      return 0;
    }
    const entry = result.entry!;
    const lines = [
      result.written
        ? `compaction written: entry ${entry.id} under ${entry.parentId}, keeping from ${entry.firstKeptEntryId}`
        : `dry run: nothing written; would append entry ${entry.id} under ${entry.parentId}, keeping from ${entry.firstKeptEntryId}`,
      `tokens: ${result.tokensBefore} → ${result.tokensAfter}`,
      `model: ${result.model}${result.digest ? " (digest, no model)" : ""}`,
    ];
    const note = semantics.summaryWriter.entryNote(entry, "compaction");
    if (note) lines.push(note);
    if (!result.written) lines.push("", entry.summary);
    printLines(ctx, lines);
    return 0;
  },
};
