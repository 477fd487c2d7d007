import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { findSessionFiles, piSessionDirForCwd, summarizeSessionFile, type SessionFileSummary } from "../../core/session/discover";
import type { Command } from "../command";
import { printJson, printLines } from "../output";
import { resolveAgentDir, resolveCwd } from "../session-input";

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

export const listCommand: Command = {
  name: "list",
  usage: "list [DIR…] [--json] [--agent-dir DIR] [--cwd DIR]",
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
      printJson(ctx, {
        sessions: summaries.map((s) => ({
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
