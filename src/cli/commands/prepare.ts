import { InvalidSettingError } from "../../core/settings";
import { intFlag } from "../args";
import type { Command } from "../command";
import { printJson, printJsonWithTextPieces, printLines, warn } from "../output";
import { loadSession, requireFileArg, resolveAgentDir, resolveCwd, resolveLeaf } from "../session-input";
import { formatDiagnosticLocation } from "../../core/diagnostics";
import { CliError, EXIT_BAD_INPUT } from "../errors";
import { sessionSemantics } from "../session-semantics";
import { formatAgentVersion } from "../../core/agent";
import { sessionBranchReader } from "../../core/context/branch-reader";

export const prepareCommand: Command = {
  name: "prepare",
  usage: "prepare FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--agent pi|omp] [--pi-version 0.73|1.5] [--json]",
  summary: "The compaction that `compact` would run, without calling a model.",
  flags: { leaf: { value: true }, "keep-recent-tokens": { value: true }, "reserve-tokens": { value: true } },
  async run(ctx) {
    const session = await loadSession(ctx, requireFileArg(ctx), { inMemory: true });
    const leafId = resolveLeaf(ctx, session);
    const { semantics, tags } = sessionSemantics(ctx, session);
    // Bodies are parsed as needed and not kept: a 100 MB branch is read in one pass.
    const branch = sessionBranchReader(session, leafId);
    // pi 1.5 applies compaction.modelOverrides for the model in use: the branch's model.
    const model = semantics.branchModel(branch);
    let resolved;
    try {
      resolved = semantics.resolveCompactionSettings(
        {
          agentDir: resolveAgentDir(ctx, tags.agent),
          cwd: resolveCwd(ctx, session),
          overrides: { compaction: { keepRecentTokens: intFlag(ctx.args, "keep-recent-tokens"), reserveTokens: intFlag(ctx.args, "reserve-tokens") } },
        },
        model ? `${model.provider}/${model.modelId}` : undefined,
      );
    } catch (error) {
      if (error instanceof InvalidSettingError) throw new CliError(`${error.file ?? "settings"}: ${error.message}`, EXIT_BAD_INPUT);
      throw error;
    }
    for (const d of resolved.diagnostics) warn(ctx, `warning: ${formatDiagnosticLocation(d)}`);
    const described = semantics.describeBranchCompaction(branch, resolved.settings);
    // tokensExact: false where the agent counts this model's tokens with a native tokenizer (omp: Claude, Qwen, …).
    const exact = semantics.tokenCountsExact?.(model);
    if (ctx.json) {
      const document = { ...described, ...tags, leafId, settings: resolved.settings, ...(exact === undefined ? {} : { tokensExact: exact }) };
      if (described.compactable) printJsonWithTextPieces(ctx, document, "serializedHistory", described.serializedHistory.pieces);
      else printJson(ctx, document);
      return 0;
    }
    const s = resolved.settings;
    const lines = [`settings: keepRecentTokens ${s.keepRecentTokens}, reserveTokens ${s.reserveTokens} (${formatAgentVersion(semantics.agent)} semantics)`];
    if (!described.compactable) {
      lines.push(`not compactable: ${described.reason}`);
    } else {
      lines.push(
        `would summarise ${described.messagesToSummarize} messages${described.isSplitTurn ? ` + a split-turn prefix of ${described.turnPrefixMessages}` : ""}`,
        `keep from entry ${described.firstKeptEntryId}; tokens before ~${described.tokensBefore}${exact === false ? " (our estimate; omp counts this model with its native tokenizer)" : ""}`,
        `previous summary: ${described.previousSummary === null ? "none (initial summary)" : `${described.previousSummary.length} chars (update summary)`}`,
        `pi's file lists: ${described.readFiles.length} read, ${described.modifiedFiles.length} modified`,
        `serialised history: ${described.serializedHistory.length} chars; turn prefix: ${described.serializedTurnPrefix.length} chars`,
      );
    }
    printLines(ctx, lines);
    return 0;
  },
};
