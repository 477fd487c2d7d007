import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { forkSession } from "../../core/write";
import { boolFlag, stringFlag } from "../args";
import type { Command } from "../command";
import { CliError, EXIT_BAD_INPUT } from "../errors";
import { printJson, printLines } from "../output";
import { loadSession, requireFileArg, resolveAgentDir, resolveOmpAgentDir } from "../session-input";
import { toCliError } from "./summary-flags";
import { writeSemantics } from "../session-semantics";
import { counted } from "../../core/text/counted";

export const forkCommand: Command = {
  name: "fork",
  usage: "fork FILE [--at ID] [--session-dir DIR] [--dry-run] [--json]",
  summary:
    "Write a NEW session holding the branch root→ID (default: the leaf, pi's /clone) as pi's /fork does, in pi's folder for the session's cwd (or --cwd); the source is not changed.",
  flags: { at: { value: true }, "session-dir": { value: true }, "dry-run": { value: false } },
  async run(ctx) {
    const file = requireFileArg(ctx);
    const session = await loadSession(ctx, file);
    // pi's writes only: an omp session is refused until the writers follow omp's rules.
    const { agent } = writeSemantics(ctx, session);
    const cwdFlag = stringFlag(ctx.args, "cwd");
    const cwd = cwdFlag !== undefined ? resolve(ctx.io.processCwd, cwdFlag) : undefined;
    if (cwd !== undefined && !(existsSync(cwd) && statSync(cwd).isDirectory())) throw new CliError(`--cwd ${cwdFlag}: not a directory`, EXIT_BAD_INPUT);
    const sessionDir = stringFlag(ctx.args, "session-dir");
    const atId = stringFlag(ctx.args, "at");
    let result;
    try {
      result = forkSession({
        agent,
        session,
        agentDir: resolveAgentDir(ctx),
        ompAgentDir: resolveOmpAgentDir(ctx),
        dryRun: boolFlag(ctx.args, "dry-run"),
        ...(atId !== undefined ? { atId } : {}),
        ...(cwd !== undefined ? { cwd } : {}),
        ...(sessionDir !== undefined ? { sessionDir: resolve(ctx.io.processCwd, sessionDir) } : {}),
      });
    } catch (error) {
      throw toCliError(error);
    }
    if (ctx.json) {
      printJson(ctx, {
        agent,
        written: result.written,
        path: result.path,
        id: result.header.id,
        parentSession: result.header.parentSession,
        cwd: result.header.cwd,
        atId: result.atId,
        leafId: result.leafId,
        entries: result.entries.length,
        entryIds: result.entries.map((e) => e.id),
      });
      return 0;
    }
    printLines(ctx, [
      result.written ? `new session ${result.header.id}: ${result.path}` : `dry run: would write new session ${result.path}; nothing written`,
      `${counted(result.entries.length, "entry")}, root → ${result.atId}; resume it with: pi --session ${result.path}`,
    ]);
    return 0;
  },
};
