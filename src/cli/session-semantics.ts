// The one place the CLI decides which pi's semantics a session is read (and
// written) with: `--pi-version 0.73|1.5`, else automatic (shared/spec/cli.md,
// "Which pi"). Every command asks this once per session.

import { choosePiVersion, parsePiVersion, semanticsFor, type AgentSemantics, type PiVersion, type PiVersionChoice } from "../core/agent";
import type { LoadedSession } from "../core/session/open/open-session";
import { stringFlag } from "./args";
import type { CommandContext } from "./command";
import { UsageError } from "./errors";

export interface SessionSemantics {
  semantics: AgentSemantics;
  choice: PiVersionChoice;
  /** Shorthand for `semantics.version`, as every `--json` output carries it. */
  piVersion: PiVersion;
}

/** `--pi-version`: 0.73 or 1.5 (0.73.1, 1.5.2, … accepted); undefined when not given. */
export function piVersionFlag(ctx: CommandContext): PiVersion | undefined {
  const text = stringFlag(ctx.args, "pi-version");
  if (text === undefined) return undefined;
  const version = parsePiVersion(text);
  if (!version) throw new UsageError(`--pi-version must be 0.73 or 1.5, got '${text}'`);
  return version;
}

/** The semantics for `session` (or, without one, for sessions that hold no pi 1.x marker). */
export function sessionSemantics(ctx: CommandContext, session?: LoadedSession): SessionSemantics {
  const choice = choosePiVersion({ explicit: piVersionFlag(ctx), session, env: ctx.io.env });
  return { semantics: semanticsFor(choice.version), choice, piVersion: choice.version };
}
