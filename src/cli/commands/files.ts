import { collectFilesTouched, initFilesTouched } from "../../core/files-touched";
import { formatDiagnosticLocation } from "../../core/diagnostics";
import type { Command } from "../command";
import { printJson, printLines, warn } from "../output";
import { loadSession, requireFileArg, resolveLeaf } from "../session-input";
import { sessionSemantics } from "../session-semantics";
import { stringFlag } from "../args";
import { recordedCwd } from "../../core/session/open/session-info";
import { join, resolve } from "node:path";
import { defaultCacheDir } from "../../core/cache-dir";
import { loadBashAnalyses, saveBashAnalyses } from "../../core/files-touched/analysis-cache-file";

export const filesCommand: Command = {
  name: "files",
  usage: "files FILE [--leaf ID] [--agent pi|omp] [--pi-version 0.73|1.5] [--json]",
  summary: "The files-touched manifest of the branch root→leaf (R read, W write, E edit, M moved here, D deleted).",
  flags: { leaf: { value: true } },
  async run(ctx) {
    const session = await loadSession(ctx, requireFileArg(ctx));
    const leafId = resolveLeaf(ctx, session);
    // Relative paths in a session mean what they meant where the agent ran: the header's cwd.
    const flagCwd = stringFlag(ctx.args, "cwd");
    const cwd = flagCwd ? resolve(ctx.io.processCwd, flagCwd) : recordedCwd(session) ?? ctx.io.processCwd;
    // Commands analysed by an earlier run (of this command or the extension's) are not parsed again.
    const cacheFolder = join(defaultCacheDir(ctx.io.env), "catalogue");
    await Promise.all([initFilesTouched(), loadBashAnalyses(cacheFolder)]);
    const touched = collectFilesTouched(session.pathTo(leafId), { cwd });
    await saveBashAnalyses(cacheFolder).catch(() => undefined);
    for (const d of touched.diagnostics.filter((x) => x.severity !== "info")) warn(ctx, `warning: ${formatDiagnosticLocation(d)}`);
    if (ctx.json) {
      printJson(ctx, { ...sessionSemantics(ctx, session).tags, cwd: touched.cwd, leafId, files: touched.files });
      return 0;
    }
    if (touched.files.length === 0) {
      printLines(ctx, [`no files touched on this branch (cwd ${touched.cwd})`]);
      return 0;
    }
    printLines(ctx, [`cwd ${touched.cwd}`, ...touched.files.map((f) => `${f.ops.padEnd(2)} ${f.displayPath}`)]);
    return 0;
  },
};
