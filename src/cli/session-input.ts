// Shared steps of the commands that take a session FILE: open it, report its
// diagnostics, and resolve --leaf, --cwd and --agent-dir as the contract says.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { formatDiagnosticLocation } from "../core/diagnostics";
import { agentRoot } from "../core/discovery/agent-roots";
import { ompAgentDir } from "../core/agent/omp-18/omp-dirs";
import type { AgentName } from "../core/agent";
import { openSession, type LoadedSession } from "../core/session/open/open-session";
import { openSessionInMemory } from "../core/session/open/open-session-in-memory";
import { boolFlag, stringFlag } from "./args";
import type { CommandContext } from "./command";
import { CliError, EXIT_BAD_INPUT, UsageError } from "./errors";
import { cliIndexSnapshots } from "./index-snapshots";
import { warn } from "./output";
import { sessionSemantics } from "./session-semantics";

const MAX_DIAGNOSTICS_SHOWN = 20;

export function requireFileArg(ctx: CommandContext): string {
  const file = ctx.args.positionals[0];
  if (!file) throw new UsageError(`'${ctx.args.command}' needs a session FILE`);
  if (ctx.args.positionals.length > 1) throw new UsageError(`unexpected argument '${ctx.args.positionals[1]}'`);
  return resolve(ctx.io.processCwd, file);
}

/**
 * `inMemory`: the file is read in one go and kept for its bodies (a command that reads
 * most bodies once: the index and the bodies share one read; see openSessionInMemory).
 */
export async function loadSession(ctx: CommandContext, file: string, options: { inMemory?: boolean } = {}): Promise<LoadedSession> {
  if (!existsSync(file)) throw new CliError(`${file}: no such file`, EXIT_BAD_INPUT);
  if (statSync(file).isDirectory()) throw new CliError(`${file}: is a directory, not a session file`, EXIT_BAD_INPUT);
  let session: LoadedSession;
  try {
    // prepare's in-memory read checks every byte and holds the file; it keeps no snapshot (its cold run is the measured one).
    session = options.inMemory ? openSessionInMemory(file) : await openSession(file, { snapshots: cliIndexSnapshots(ctx.io.env) });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error), EXIT_BAD_INPUT);
  }
  if (!session.header && session.index.size === 0) {
    // Not a session at all: one error line first; why each line failed only with --verbose.
    const details = boolFlag(ctx.args, "verbose") ? diagnosticLines(ctx, session) : [];
    if (session.titleSlot) {
      throw new CliError(`${file}:1: only omp's title slot, no session header: omp would start a new session here (replacing the file); nothing to read`, EXIT_BAD_INPUT, details);
    }
    throw new CliError(`${file}:1: not a pi session file (no session header and no entries)`, EXIT_BAD_INPUT, details);
  }
  reportDiagnostics(ctx, session);
  return session;
}

function diagnosticLines(ctx: CommandContext, session: LoadedSession): string[] {
  // In the words of the session's agent (pi's reader wording, or omp's consequences).
  const { semantics } = sessionSemantics(ctx, session);
  const shown = session.diagnostics.filter((d) => d.severity !== "info").map((d) => semantics.explainDiagnostic(d));
  // The command goes on, so every problem is a warning here; `error:` is kept for the failure that stops it.
  const lines = shown.slice(0, MAX_DIAGNOSTICS_SHOWN).map((d) => `warning: ${formatDiagnosticLocation({ ...d, file: d.file ?? session.path })}`);
  if (shown.length > MAX_DIAGNOSTICS_SHOWN) lines.push(`… and ${shown.length - MAX_DIAGNOSTICS_SHOWN} more problems`);
  return lines;
}

export function reportDiagnostics(ctx: CommandContext, session: LoadedSession): void {
  for (const line of diagnosticLines(ctx, session)) warn(ctx, line);
}

/** `--leaf ID`, checked against the file; default: the last entry, as pi does. */
export function resolveLeaf(ctx: CommandContext, session: LoadedSession, flag = "leaf"): string | null {
  const id = stringFlag(ctx.args, flag);
  if (id === undefined) return session.index.leafId;
  if (!session.index.get(id)) throw new CliError(`${session.path}: no entry with id '${id}' (--${flag})`, EXIT_BAD_INPUT);
  return id;
}

/** omp's agent dir for writing: `--agent-dir` with `--agent omp`, else omp's own (its overrides, from the environment). */
export function resolveOmpAgentDir(ctx: CommandContext): string {
  const flag = stringFlag(ctx.args, "agent-dir");
  if (flag && stringFlag(ctx.args, "agent") === "omp") return resolve(ctx.io.processCwd, flag);
  return ompAgentDir({ env: ctx.io.env, ...(ctx.io.env.HOME ? { home: ctx.io.env.HOME } : {}) });
}

/** `--agent-dir`, else the agent's default (pi: $PI_CODING_AGENT_DIR or ~/.pi/agent; omp: ~/.omp/agent or omp's overrides). */
export function resolveAgentDir(ctx: CommandContext, agent: AgentName = "pi"): string {
  const flag = stringFlag(ctx.args, "agent-dir");
  if (flag) return resolve(ctx.io.processCwd, flag);
  return agentRoot(agent, undefined, { env: ctx.io.env, ...(ctx.io.env.HOME ? { home: ctx.io.env.HOME } : {}) }).agentDir;
}

/** --cwd, else the session header's cwd where it names an existing directory, else the process cwd. */
export function resolveCwd(ctx: CommandContext, session?: LoadedSession): string {
  const flag = stringFlag(ctx.args, "cwd");
  if (flag) {
    const dir = resolve(ctx.io.processCwd, flag);
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new CliError(`--cwd ${flag}: not a directory`, EXIT_BAD_INPUT);
    return dir;
  }
  const headerCwd = session?.header?.cwd;
  if (typeof headerCwd === "string" && headerCwd && existsSync(headerCwd) && statSync(headerCwd).isDirectory()) return headerCwd;
  return ctx.io.processCwd;
}

export function rejectExtraPositionals(ctx: CommandContext, max: number): void {
  if (ctx.args.positionals.length > max) throw new UsageError(`unexpected argument '${ctx.args.positionals[max]}'`);
}
