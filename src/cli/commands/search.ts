import { join } from "node:path";
import { defaultCacheDir } from "../../core/cache-dir";
import { SearchIndex, type SearchResult } from "../../core/search/search-index";
import { sessionDirsForCwd } from "../../core/discovery/agent-roots";
import { candidateFiles, homeOf, listedRoots } from "../session-roots";
import { boolFlag, intFlag } from "../args";
import type { Command, CommandContext } from "../command";
import { CliError, EXIT_BAD_INPUT, UsageError } from "../errors";
import { printJson, printLines, warn } from "../output";
import { resolveCwd } from "../session-input";

/** Like `list`: each agent's folder for the project plus session files inside it; or every folder of each agent. */
async function scopeFiles(ctx: CommandContext): Promise<{ files: string[]; scope: string }> {
  const roots = listedRoots(ctx);
  if (boolFlag(ctx.args, "all")) {
    return { files: await candidateFiles(ctx, roots, [], true), scope: `every folder under ${roots.map((r) => r.sessionsRoot).join(" and ")}` };
  }
  const cwd = resolveCwd(ctx);
  const files = await candidateFiles(ctx, roots, [cwd], false, true);
  return { files, scope: `${roots.map((r) => sessionDirsForCwd(r, cwd, homeOf(ctx))[0]).join(", ")} and ${cwd}` };
}

function printText(ctx: CommandContext, result: SearchResult, scope: string): void {
  if (result.sessions.length === 0) {
    printLines(ctx, [`no sessions match ${JSON.stringify(result.query)} (searched ${scope})`]);
    return;
  }
  const blocks = result.sessions.map((s) => {
    const title = s.name ?? s.id;
    const lines = [`${title}  ${new Date(s.modifiedMs).toISOString()}  [${s.fields.join(", ")}]`, `  ${s.path}`];
    for (const m of s.matches) lines.push(`    ${m.role} ${m.entryId ?? `line ${m.line}`}: ${m.snippet}`);
    return lines.join("\n");
  });
  printLines(ctx, [blocks.join("\n\n")]);
}

export const searchCommand: Command = {
  name: "search",
  usage: "search QUERY [--all] [--limit N] [--json] [--agent-dir DIR] [--cwd DIR]",
  summary: "Sessions whose name, id, cwd or message text match QUERY, in pi 1.5's /resume syntax: words, \"exact phrase\", re:<regex>.",
  flags: { all: { value: false }, limit: { value: true }, agent: { value: true } },
  async run(ctx) {
    const query = ctx.args.positionals.join(" ");
    if (!query.trim()) throw new UsageError("search needs a QUERY (words, \"a phrase\" or re:<regex>)");
    const limit = intFlag(ctx.args, "limit");
    const { files, scope } = await scopeFiles(ctx);
    const index = new SearchIndex(join(defaultCacheDir(ctx.io.env), "search"));
    const result = await index.search(files, query, { limit });
    if (result.error) throw new CliError(`invalid query ${JSON.stringify(query)}: ${result.error}`, EXIT_BAD_INPUT);
    if (result.truncated) {
      warn(ctx, `warning: ${result.truncated}: ${result.notSearched.length} session(s) not searched${result.notSearched.length ? `: ${result.notSearched.join(", ")}` : ""}`);
    }
    if (ctx.json) {
      printJson(ctx, {
        query,
        total: result.total,
        ...(result.truncated ? { truncated: result.truncated, notSearched: result.notSearched } : {}),
        sessions: result.sessions.map((s) => ({
          path: s.path,
          id: s.id,
          cwd: s.cwd,
          name: s.name,
          modified: new Date(s.modifiedMs).toISOString(),
          fields: s.fields,
          matches: s.matches.map((m) => ({ entryId: m.entryId, role: m.role, snippet: m.snippet, line: m.line, highlight: m.highlight })),
        })),
      });
      return 0;
    }
    printText(ctx, result, scope);
    return 0;
  },
};
