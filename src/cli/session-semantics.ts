// The one place the CLI decides whose semantics a session is read (and
// written) with: `--agent pi|omp` and `--pi-version 0.73|1.5`, else automatic
// (shared/spec/cli.md, "Which agent" and "Which pi"). Every command asks this
// once per session.

import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  chooseAgent,
  defaultOmpDirs,
  isAgentName,
  parsePiVersion,
  semanticsFor,
  type AgentChoice,
  type AgentName,
  type AgentSemantics,
  type PiVersion,
  type PiVersionChoice,
} from "../core/agent";
import type { LoadedSession } from "../core/session/open/open-session";
import { stringFlag } from "./args";
import type { CommandContext } from "./command";
import { CliError, EXIT_REFUSED, UsageError } from "./errors";

export interface SessionSemantics {
  semantics: AgentSemantics;
  /** How the agent (and for pi, its version) was chosen. */
  agentChoice: AgentChoice;
  /** For pi sessions, how the pi version was chosen (for omp: the pi rules its format descends from). */
  choice: PiVersionChoice;
  /** Shorthand for `semantics.version`. */
  piVersion: PiVersion;
  agent: AgentName;
  /** What every `--json` output carries: `agent`, and `piVersion` for pi sessions. */
  tags: { agent: AgentName; piVersion?: PiVersion };
}

/** `--pi-version`: 0.73 or 1.5 (0.73.1, 1.5.2, … accepted); undefined when not given. */
export function piVersionFlag(ctx: CommandContext): PiVersion | undefined {
  const text = stringFlag(ctx.args, "pi-version");
  if (text === undefined) return undefined;
  const version = parsePiVersion(text);
  if (!version) throw new UsageError(`--pi-version must be 0.73 or 1.5, got '${text}'`);
  return version;
}

/** `--agent`: pi or omp; undefined when not given. */
export function agentFlag(ctx: CommandContext): AgentName | undefined {
  const text = stringFlag(ctx.args, "agent");
  if (text === undefined) return undefined;
  if (!isAgentName(text)) throw new UsageError(`--agent must be pi or omp, got '${text}'`);
  if (text === "omp" && stringFlag(ctx.args, "pi-version") !== undefined) throw new UsageError("--pi-version applies to pi sessions, not with --agent omp");
  return text;
}

/**
 * omp's blob store: `<--agent-dir>/blobs`; else the one beside the sessions
 * root the file lies in (`<root>/sessions/<folder>/<file>` → `<root>/blobs`, a
 * profile's or an XDG data folder's); else omp's own (its env overrides).
 */
function ompBlobsDir(ctx: CommandContext, sessionPath: string | undefined): string {
  const flag = stringFlag(ctx.args, "agent-dir");
  if (flag) return join(resolve(ctx.io.processCwd, flag), "blobs");
  if (sessionPath) {
    const root = dirname(dirname(dirname(sessionPath)));
    if (basename(dirname(dirname(sessionPath))) === "sessions" && existsSync(join(root, "blobs"))) return join(root, "blobs");
  }
  return defaultOmpDirs(ctx.io.env).blobsDir;
}

/** The semantics for `session` (or, without one, for sessions that hold no marker). */
export function sessionSemantics(ctx: CommandContext, session?: LoadedSession): SessionSemantics {
  const agentChoice = chooseAgent({ explicitAgent: agentFlag(ctx), explicit: piVersionFlag(ctx), session, path: session?.path, env: ctx.io.env });
  const omp = agentChoice.agent.agent === "omp";
  const semantics = semanticsFor(agentChoice.agent, omp ? { ompBlobsDir: ompBlobsDir(ctx, session?.path) } : {});
  const choice: PiVersionChoice = agentChoice.pi ?? { version: semantics.version, source: "default", reason: `omp: ${agentChoice.reason}` };
  const agent = agentChoice.agent.agent;
  return { semantics, agentChoice, choice, piVersion: semantics.version, agent, tags: semantics.tags };
}

/**
 * The semantics a writer uses: pi's, or omp's for an omp session (the writers
 * follow omp's rules: spec §8, writing tier). `omp: false` (migrate: omp
 * migrates its own files) refuses an omp session (exit 3, nothing written).
 */
export function writeSemantics(ctx: CommandContext, session?: LoadedSession, options: { omp?: boolean } = {}): SessionSemantics {
  const chosen = sessionSemantics(ctx, session);
  if (chosen.agent === "omp" && options.omp === false) {
    throw new CliError(
      `${session?.path ?? "session"}: an omp session (${chosen.agentChoice.reason}); omp migrates its own files when it next writes them; nothing was written`,
      EXIT_REFUSED,
    );
  }
  return chosen;
}
