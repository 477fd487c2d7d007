import { resolve } from "node:path";
import { renameSession } from "../../core/write";
import { boolFlag } from "../args";
import type { Command } from "../command";
import { UsageError } from "../errors";
import { printJson, printLines } from "../output";
import { loadSession, resolveOmpAgentDir } from "../session-input";
import { toCliError } from "./summary-flags";
import { writeSemantics } from "../session-semantics";

export const renameCommand: Command = {
  name: "rename",
  usage: "rename FILE NAME [--dry-run] [--json]",
  summary: "Name the session as pi's /name does: appends a session_info entry (line breaks become spaces).",
  flags: { "dry-run": { value: false } },
  async run(ctx) {
    const [file, name, extra] = ctx.args.positionals;
    if (!file || name === undefined) throw new UsageError("'rename' needs a session FILE and a NAME");
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}' (quote a NAME with spaces)`);
    const session = await loadSession(ctx, resolve(ctx.io.processCwd, file));
    const { agent } = writeSemantics(ctx, session);
    let result;
    try {
      result = renameSession({ session, agent, name, dryRun: boolFlag(ctx.args, "dry-run"), ompAgentDir: resolveOmpAgentDir(ctx) });
    } catch (error) {
      throw toCliError(error);
    }
    if (ctx.json) {
      printJson(ctx, { written: result.written, entry: result.entry, name: result.name, previousName: result.previousName, agent: result.agent, ...(result.notice ? { notice: result.notice } : {}) });
      return 0;
    }
    printLines(ctx, [
      result.written ? `session named "${result.name}" (entry ${result.entry.id})` : `dry run: would name the session "${result.name}"; nothing written`,
      ...(result.written && result.notice ? [`note: ${result.notice}`] : []),
    ]);
    return 0;
  },
};
