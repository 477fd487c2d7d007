import { resolve } from "node:path";
import { setLabel } from "../../core/write";
import { boolFlag, stringFlag } from "../args";
import type { Command } from "../command";
import { UsageError } from "../errors";
import { printJson, printLines } from "../output";
import { loadSession } from "../session-input";
import { toCliError } from "./summary-flags";
import { writeSemantics } from "../session-semantics";

export const labelCommand: Command = {
  name: "label",
  usage: "label FILE --target ID (NAME | --clear) [--dry-run] [--json]",
  summary: "Set or clear an entry's label as pi's /tree does: appends a label entry.",
  flags: { target: { value: true }, clear: { value: false }, "dry-run": { value: false } },
  async run(ctx) {
    const [file, name, extra] = ctx.args.positionals;
    if (!file) throw new UsageError("'label' needs a session FILE");
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}' (quote a NAME with spaces)`);
    const targetId = stringFlag(ctx.args, "target");
    if (targetId === undefined) throw new UsageError("'label' needs --target ID");
    const clear = boolFlag(ctx.args, "clear");
    if (clear === (name !== undefined)) throw new UsageError("'label' needs either a NAME or --clear");
    if (!clear && !name!.trim()) throw new UsageError("the label NAME is empty (use --clear to remove a label)");
    const session = await loadSession(ctx, resolve(ctx.io.processCwd, file));
    // pi's writes only: an omp session is refused until the writers follow omp's rules.
    const { agent } = writeSemantics(ctx, session);
    let result;
    try {
      result = setLabel({ session, agent, targetId, label: clear ? undefined : name, dryRun: boolFlag(ctx.args, "dry-run") });
    } catch (error) {
      throw toCliError(error);
    }
    if (ctx.json) {
      printJson(ctx, { agent, written: result.written, entry: result.entry, targetId: result.targetId, label: result.label, previousLabel: result.previousLabel });
      return 0;
    }
    const what = result.label === null ? `label of ${targetId} cleared` : `${targetId} labelled "${result.label}"`;
    printLines(ctx, [result.written ? `${what} (entry ${result.entry.id})` : `dry run: ${what}; nothing written`]);
    return 0;
  },
};
