import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultCacheDir } from "../../core/cache-dir";
import type { CatalogueRow } from "../../core/catalogue/catalogue-row";
import { SessionCatalogue } from "../../core/catalogue/session-catalogue";
import { findSessionFiles, jsonlFilesIn, piSessionDirForCwd, piSessionFolders } from "../../core/discovery/discover";
import { boolFlag } from "../args";
import type { Command, CommandContext } from "../command";
import { printJson, printLines, warn } from "../output";
import { resolveAgentDir, resolveCwd } from "../session-input";
import { choosePiVersion } from "../../core/agent";
import { piVersionFlag } from "../session-semantics";

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** Candidate files: pi's folder of each dir (or every pi folder with --all) and session files inside the dirs. */
async function candidateFiles(ctx: CommandContext, agentDir: string, dirs: readonly string[], all: boolean): Promise<string[]> {
  const files = new Map<string, string>();
  const add = (file: string) => files.set(canonical(file), file);
  if (all) {
    for (const folder of await piSessionFolders(agentDir)) for (const file of await jsonlFilesIn(folder)) add(file);
  }
  for (const dir of dirs) {
    for (const file of await jsonlFilesIn(piSessionDirForCwd(dir, agentDir))) add(file);
    if (!all || ctx.args.positionals.length > 0) for (const file of await findSessionFiles([dir], {})) add(file);
  }
  return [...files.values()];
}

function jsonRow(r: CatalogueRow): Record<string, unknown> {
  return {
    path: r.path,
    id: r.id,
    cwd: r.cwd,
    name: r.name,
    entries: r.entries,
    modified: r.modified,
    messages: r.messages,
    firstUserMessage: r.firstUserMessage,
    parentSession: r.parentSession,
    lastActivity: r.lastActivity > 0 ? new Date(r.lastActivity).toISOString() : null,
    contextTokens: r.contextTokens,
    contextTokensEstimated: r.contextSource !== "usage",
    contextSource: r.contextSource,
    model: r.model,
    totalTokens: r.totalTokens,
    input: r.input,
    output: r.output,
    cacheRead: r.cacheRead,
    cacheWrite: r.cacheWrite,
    cost: r.cost,
    hasCompactions: r.hasCompactions,
    size: r.size,
    mtime: new Date(r.mtimeMs).toISOString(),
  };
}

function compact(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

export const listCommand: Command = {
  name: "list",
  usage: "list [DIR…] [--all] [--json] [--agent-dir DIR] [--cwd DIR] [--pi-version 0.73|1.5]",
  summary:
    "Sessions of the project dirs (pi's own folder for each under the agent dir, plus *.jsonl session files inside them), or of every project with --all; remembered in pi-sessions' cache folder between runs.",
  flags: { all: { value: false } },
  async run(ctx) {
    const agentDir = resolveAgentDir(ctx);
    const all = boolFlag(ctx.args, "all");
    const dirs = ctx.args.positionals.length > 0 ? ctx.args.positionals.map((d) => resolve(ctx.io.processCwd, d)) : all ? [] : [resolveCwd(ctx)];
    const files = await candidateFiles(ctx, agentDir, dirs, all);
    const explicit = piVersionFlag(ctx);
    const versionOf = (marker: CatalogueRow["pi1xMarker"] | null) => choosePiVersion({ explicit, marker, env: ctx.io.env }).version;
    // Sessions without a pi 1.x marker are read with this; each session with one as pi 1.5 (unless explicit).
    const catalogue = await SessionCatalogue.open(join(defaultCacheDir(ctx.io.env), "catalogue"), explicit ? { explicitVersion: explicit } : { defaultVersion: versionOf(null) });
    const rows = await catalogue.list(files);
    try {
      await catalogue.save();
    } catch (error) {
      warn(ctx, `cannot save the session catalogue in ${catalogue.folder}: ${error instanceof Error ? error.message : String(error)}`);
    }
    rows.sort((a, b) => b.modified.localeCompare(a.modified) || a.path.localeCompare(b.path));
    if (ctx.json) {
      printJson(ctx, {
        // Sessions without a pi 1.x marker are read with this; each session says its own.
        piVersion: catalogue.defaultVersion,
        sessions: rows.map((r) => ({ piVersion: versionOf(r.pi1xMarker), ...jsonRow(r) })),
      });
      return 0;
    }
    if (rows.length === 0) {
      const where = all ? `${join(agentDir, "sessions")}` : dirs.map((d) => piSessionDirForCwd(d, agentDir)).join(", ");
      printLines(ctx, [`no sessions for ${all ? "any project" : dirs.join(", ")} (looked in ${where}${all ? "" : " and inside the dirs"})`]);
      return 0;
    }
    printLines(
      ctx,
      rows.map((s) => {
        const title = s.name ?? (s.firstUserMessage ? s.firstUserMessage.replace(/\s+/g, " ").slice(0, 60) : "(no messages)");
        const tokens = `${s.contextSource === "usage" ? "" : "~"}${compact(s.contextTokens)} ctx`;
        const cost = s.cost > 0 ? `  $${s.cost.toFixed(2)}` : "";
        return `${s.modified}  ${String(s.entries).padStart(6)} ${s.entries === 1 ? "entry  " : "entries"}  ${tokens.padStart(10)}${cost}  ${title}\n    ${s.path}`;
      }),
    );
    return 0;
  },
};
