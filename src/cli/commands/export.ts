import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { describeSecrets, EXPORT_FORMATS, exportSession, type ExportFormat } from "../../core/export";
import { boolFlag, stringFlag } from "../args";
import type { Command } from "../command";
import { CliError, EXIT_BAD_INPUT, UsageError } from "../errors";
import { printJson, warn } from "../output";
import { loadSession, requireFileArg, resolveLeaf } from "../session-input";
import { sessionSemantics } from "../session-semantics";

export const exportCommand: Command = {
  name: "export",
  usage: "export FILE [--leaf ID] --format md|html|jsonl [-o OUT] [--redact]",
  summary: "Export the branch root→leaf as Markdown, an offline HTML page, or a standalone session JSONL (secrets are flagged; --redact replaces them).",
  flags: { leaf: { value: true }, format: { value: true }, o: { value: true }, out: { value: true }, redact: { value: false } },
  async run(ctx) {
    const format = stringFlag(ctx.args, "format");
    if (!format) throw new UsageError("'export' needs --format md|html|jsonl");
    if (!(EXPORT_FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be md, html or jsonl, got '${format}'`);
    const session = await loadSession(ctx, requireFileArg(ctx));
    const leafId = resolveLeaf(ctx, session);
    const redact = boolFlag(ctx.args, "redact");
    const result = exportSession(session, { leafId, format: format as ExportFormat, redact });
    if (result.secrets.count > 0) {
      warn(ctx, `warning: the branch holds ${result.secrets.count} likely secret(s): ${describeSecrets(result.secrets)}${redact ? " (redacted)" : "; pass --redact to replace them"}`);
    }
    const out = stringFlag(ctx.args, "o") ?? stringFlag(ctx.args, "out");
    if (out === undefined) {
      if (ctx.json) throw new UsageError("--json needs -o OUT (the export itself would be stdout)");
      ctx.io.stdout(result.text);
      return 0;
    }
    const path = resolve(ctx.io.processCwd, out);
    try {
      writeFileSync(path, result.text, { flag: "wx" });
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new CliError(`${path}: ${code === "EEXIST" ? "already exists (not overwritten)" : error instanceof Error ? error.message : String(error)}`, EXIT_BAD_INPUT);
    }
    if (ctx.json) printJson(ctx, { ...sessionSemantics(ctx, session).tags, file: path, format, leafId, entries: result.entries, secrets: result.secrets, redacted: redact });
    else warn(ctx, `wrote ${path} (${result.entries} entries, ${format})`);
    return 0;
  },
};
