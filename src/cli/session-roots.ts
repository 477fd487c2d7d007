// Which agents' folders the CLI lists and searches (shared/spec/cli.md, "Which
// agent"): without --agent-dir both agents' default dirs, pi's and omp's (with
// omp's own overrides), or only --agent's; --agent-dir is the chosen agent's.
// The candidate files of project dirs: each agent's folder(s) for the dir and
// session files inside it; with --all, every folder of each agent.

import { realpathSync } from "node:fs";
import { resolve } from "node:path";
import { findSessionFiles } from "../core/discovery/discover";
import { agentRoot, defaultAgentRoots, everyFileOf, listedFilesIn, recordedFilesOf, sessionDirsForCwd, type AgentRoot } from "../core/discovery/agent-roots";
import { readOmpListing } from "../core/discovery/omp-listing";
import { isAgentName, type AgentName } from "../core/session/format/agent-version";
import { stringFlag } from "./args";
import type { CommandContext } from "./command";
import { UsageError } from "./errors";

function canonical(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The home folder the agents resolve their folders against (the environment's HOME). */
export function homeOf(ctx: CommandContext): { home?: string } {
  return ctx.io.env.HOME ? { home: ctx.io.env.HOME } : {};
}

/** `--agent pi|omp`, or undefined. */
export function agentFlag(ctx: CommandContext): AgentName | undefined {
  const text = stringFlag(ctx.args, "agent");
  if (text === undefined) return undefined;
  if (!isAgentName(text)) throw new UsageError(`--agent must be pi or omp, got '${text}'`);
  return text;
}

/**
 * Whose folders to list: `--agent-dir` is the chosen agent's (`--agent`, default
 * pi); without it, both agents' default dirs (or only `--agent`'s).
 */
export function listedRoots(ctx: CommandContext): AgentRoot[] {
  const agent = agentFlag(ctx);
  const dir = stringFlag(ctx.args, "agent-dir");
  const options = { env: ctx.io.env, ...homeOf(ctx) };
  if (dir) return [agentRoot(agent ?? "pi", resolve(ctx.io.processCwd, dir), options)];
  const roots = defaultAgentRoots(options);
  return agent ? roots.filter((r) => r.agent === agent) : roots;
}

/** The files an agent recorded outside its root whose header records `dir` as the cwd. */
async function recordedFilesOfCwd(ctx: CommandContext, root: AgentRoot, dir: string): Promise<string[]> {
  const cwd = canonical(dir);
  const files = await recordedFilesOf(root, { env: ctx.io.env, ...homeOf(ctx) });
  return files.filter((file) => {
    const recorded = readOmpListing(file)?.cwd;
    return recorded ? canonical(resolve(recorded)) === cwd : false;
  });
}

/**
 * Candidate files: each agent's folder(s) of each dir (or every folder with
 * --all), the sessions omp recorded outside its root for the dir (or all of
 * them), and session files inside the dirs.
 */
export async function candidateFiles(ctx: CommandContext, roots: readonly AgentRoot[], dirs: readonly string[], all: boolean, insideDirs = !all || ctx.args.positionals.length > 0): Promise<string[]> {
  const files = new Map<string, string>();
  const add = (file: string) => files.set(canonical(file), file);
  if (all) for (const root of roots) for (const file of await everyFileOf(root, { env: ctx.io.env, ...homeOf(ctx) })) add(file);
  for (const dir of dirs) {
    for (const root of roots) {
      for (const folder of sessionDirsForCwd(root, dir, homeOf(ctx))) {
        for (const file of await listedFilesIn(root, folder)) add(file);
      }
      for (const file of await recordedFilesOfCwd(ctx, root, dir)) add(file);
    }
    if (insideDirs) for (const file of await findSessionFiles([dir], {})) add(file);
  }
  return [...files.values()];
}
