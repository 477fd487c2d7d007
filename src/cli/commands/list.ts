import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { findSessionFiles, piSessionDirForCwd, summarizeSessionFile, type SessionFileSummary } from "../../core/session/discover";
import type { Command } from "../command";
import { printJson, printLines } from "../output";
import { resolveAgentDir, resolveCwd } from "../session-input";
import { choosePiVersion } from "../../core/pi-version";
import { piVersionFlag } from "../session-semantics";

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export const listCommand: Command = {
  name: "list",
  usage: "list [DIR…] [--json] [--agent-dir DIR] [--cwd DIR] [--pi-version 0.73|1.5]",
  summary: "Sessions of the project dirs: pi's own folder for each under the agent dir, plus *.jsonl session files inside them.",
  flags: {},
  async run(ctx) {
    const agentDir = resolveAgentDir(ctx);
    const dirs = ctx.args.positionals.length > 0 ? ctx.args.positionals.map((d) => resolve(ctx.io.processCwd, d)) : [resolveCwd(ctx)];
    const files = new Map<string, string>();
    for (const dir of dirs) {
      for (const file of await findSessionFiles([piSessionDirForCwd(dir, agentDir)], {})) files.set(canonical(file), file);
      for (const file of await findSessionFiles([dir], {})) files.set(canonical(file), file);
    }
    const summaries: SessionFileSummary[] = [];
    for (const file of files.values()) {
      const summary = await summarizeSessionFile(file).catch(() => null);
      if (summary) summaries.push(summary);
    }
    summaries.sort((a, b) => b.modified.getTime() - a.modified.getTime() || a.path.localeCompare(b.path));
    if (ctx.json) {
      const explicit = piVersionFlag(ctx);
      const piVersionOf = (s: SessionFileSummary) => choosePiVersion({ explicit, marker: s.pi1xMarker, env: ctx.io.env }).version;
      printJson(ctx, {
        // Sessions without a pi 1.x marker are read with this; each session says its own.
        piVersion: choosePiVersion({ explicit, marker: null, env: ctx.io.env }).version,
        sessions: summaries.map((s) => ({
          piVersion: piVersionOf(s),
          path: s.path,
          id: s.id,
          cwd: s.cwd,
          name: s.name,
          entries: s.entries,
          modified: s.modified.toISOString(),
          messages: s.messageCount,
          firstUserMessage: s.firstUserMessage,
        })),
      });
      return 0;
    }
    if (summaries.length === 0) {
      printLines(ctx, [`no sessions for ${dirs.join(", ")} (looked in ${dirs.map((d) => piSessionDirForCwd(d, agentDir)).join(", ")} and inside the dirs)`]);
      return 0;
    }
    printLines(
      ctx,
      summaries.map((s) => {
        const title = s.name ?? (s.firstUserMessage ? s.firstUserMessage.replace(/\s+/g, " ").slice(0, 60) : "(no messages)");
        return `${s.modified.toISOString()}  ${String(s.entries).padStart(6)} entries  ${title}\n    ${s.path}`;
      }),
    );
    return 0;
  },
};
