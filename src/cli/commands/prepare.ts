import { describePreparation, planCompaction } from "../../core/compaction";
import { resolveCompactionSettings } from "../../core/settings";
import { intFlag } from "../args";
import type { Command } from "../command";
import { printJson, printLines, warn } from "../output";
import { loadSession, requireFileArg, resolveAgentDir, resolveCwd, resolveLeaf } from "../session-input";
import { formatDiagnosticLocation } from "../../core/diagnostics";

export const prepareCommand: Command = {
  name: "prepare",
  usage: "prepare FILE [--leaf ID] [--keep-recent-tokens N] [--reserve-tokens N] [--json]",
  summary: "The compaction that `compact` would run, without calling a model.",
  flags: { leaf: { value: true }, "keep-recent-tokens": { value: true }, "reserve-tokens": { value: true } },
  async run(ctx) {
    const session = await loadSession(ctx, requireFileArg(ctx));
    const leafId = resolveLeaf(ctx, session);
    const resolved = resolveCompactionSettings({
      agentDir: resolveAgentDir(ctx),
      cwd: resolveCwd(ctx, session),
      overrides: { compaction: { keepRecentTokens: intFlag(ctx.args, "keep-recent-tokens"), reserveTokens: intFlag(ctx.args, "reserve-tokens") } },
    });
    for (const d of resolved.diagnostics) warn(ctx, `warning: ${formatDiagnosticLocation(d)}`);
    const plan = planCompaction(session.pathTo(leafId), resolved.settings);
    const described = describePreparation(plan);
    if (ctx.json) {
      printJson(ctx, { ...described, leafId, settings: resolved.settings });
      return 0;
    }
    const s = resolved.settings;
    const lines = [`settings: keepRecentTokens ${s.keepRecentTokens}, reserveTokens ${s.reserveTokens}`];
    if (!described.compactable) {
      lines.push(`not compactable: ${described.reason}`);
    } else {
      lines.push(
        `would summarise ${described.messagesToSummarize} messages${described.isSplitTurn ? ` + a split-turn prefix of ${described.turnPrefixMessages}` : ""}`,
        `keep from entry ${described.firstKeptEntryId}; tokens before ~${described.tokensBefore}`,
        `previous summary: ${described.previousSummary === null ? "none (initial summary)" : `${described.previousSummary.length} chars (update summary)`}`,
        `pi's file lists: ${described.readFiles.length} read, ${described.modifiedFiles.length} modified`,
        `serialised history: ${described.serializedHistory.length} chars; turn prefix: ${described.serializedTurnPrefix.length} chars`,
      );
    }
    printLines(ctx, lines);
    return 0;
  },
};
