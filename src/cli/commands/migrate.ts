import { existsSync } from "node:fs";
import { migrateSessionFile } from "../../core/session/append/migrate-file";
import { boolFlag } from "../args";
import type { Command } from "../command";
import { CliError, EXIT_BAD_INPUT } from "../errors";
import { printJson, printLines, warn } from "../output";
import { openSession } from "../../core/session/open/open-session";
import { requireFileArg } from "../session-input";
import { writeSemantics } from "../session-semantics";
import { toCliError } from "./summary-flags";

export const migrateCommand: Command = {
  name: "migrate",
  usage: "migrate FILE [--dry-run] [--pi-version 0.73|1.5] [--json]",
  summary: "Rewrite a version 1 or 2 session file as version 3 (ids as shown by this tool), keeping a backup beside it.",
  flags: { "dry-run": { value: false } },
  async run(ctx) {
    const file = requireFileArg(ctx);
    if (!existsSync(file)) throw new CliError(`${file}: no such file`, EXIT_BAD_INPUT);
    const dryRun = boolFlag(ctx.args, "dry-run");
    // Migration is the same in both pi versions; the choice is reported like every writer's.
    const { piVersion } = writeSemantics(ctx, await openSession(file).catch(() => undefined), { omp: false });
    let result;
    try {
      result = migrateSessionFile(file, { dryRun });
    } catch (error) {
      throw toCliError(error);
    }
    if (result.droppedLines > 0) {
      warn(ctx, `warning: ${result.droppedLines} line(s) are not valid JSON; pi drops them when it migrates, and so does this (they stay in the backup)`);
    }
    if (ctx.json) {
      printJson(ctx, {
        fromVersion: result.fromVersion,
        toVersion: result.toVersion,
        backup: result.backup,
        written: result.written,
        plannedBackup: result.plannedBackup,
        droppedLines: result.droppedLines,
        agent: "pi",
        piVersion,
      });
      return 0;
    }
    if (result.fromVersion === result.toVersion) printLines(ctx, [`${file} is already version ${result.toVersion}; nothing to do`]);
    else if (!result.written) printLines(ctx, [`dry run: would migrate version ${result.fromVersion} → ${result.toVersion} (backup ${result.plannedBackup}); nothing written`]);
    else printLines(ctx, [`migrated version ${result.fromVersion} → ${result.toVersion}; backup: ${result.backup}`]);
    return 0;
  },
};
