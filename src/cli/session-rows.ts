// The catalogue rows of the sessions `list` and `usage` are asked about: each
// agent's folder of each project dir (or every project's with --all) and
// session files inside the dirs, read through the session catalogue kept in
// pi-sessions' cache folder (so a second run reads only what changed); each row
// says whose session it is.

import { join, resolve } from "node:path";
import { defaultCacheDir } from "../core/cache-dir";
import { agentOfRow, type CatalogueRow } from "../core/catalogue/catalogue-row";
import { SessionCatalogue } from "../core/catalogue/session-catalogue";
import { choosePiVersion } from "../core/agent";
import { rootOfFile, sessionDirsForCwd, type AgentRoot } from "../core/discovery/agent-roots";
import type { AgentName } from "../core/session/format/agent-version";
import type { PiVersion } from "../core/session/format/pi-version";
import { boolFlag } from "./args";
import type { CommandContext } from "./command";
import { warn } from "./output";
import { resolveCwd } from "./session-input";
import { candidateFiles, homeOf, listedRoots } from "./session-roots";
import { piVersionFlag } from "./session-semantics";

export interface SessionRows {
  rows: CatalogueRow[];
  roots: AgentRoot[];
  dirs: string[];
  all: boolean;
  /** The version pi sessions without a pi 1.x marker are read with. */
  defaultVersion: PiVersion;
  versionOf: (marker: CatalogueRow["pi1xMarker"] | null) => PiVersion;
  agentOf: (row: CatalogueRow) => AgentName;
}

/** The rows of the command's DIR… (default --cwd) or every project (--all); the catalogue saved after. */
export async function sessionRows(ctx: CommandContext): Promise<SessionRows> {
  const roots = listedRoots(ctx);
  const all = boolFlag(ctx.args, "all");
  const dirs = ctx.args.positionals.length > 0 ? ctx.args.positionals.map((d) => resolve(ctx.io.processCwd, d)) : all ? [] : [resolveCwd(ctx)];
  const files = await candidateFiles(ctx, roots, dirs, all);
  // omp honours $PI_CODING_AGENT_DIR too: a folder both agents use says nothing about whose a file is.
  const ompRoots = roots.filter((r) => r.agent === "omp" && !roots.some((p) => p.agent === "pi" && p.sessionsRoot === r.sessionsRoot));
  const agentOf = (row: CatalogueRow): AgentName => agentOfRow(row, (path) => rootOfFile(path, ompRoots) !== undefined);
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
  return { rows, roots, dirs, all, defaultVersion: catalogue.defaultVersion, versionOf, agentOf };
}

/** Where `list` and `usage` looked, for their "no sessions" line. */
export function lookedIn(ctx: CommandContext, found: SessionRows): string {
  const where = found.all
    ? found.roots.map((r) => r.sessionsRoot).join(", ")
    : found.dirs.flatMap((d) => found.roots.map((r) => sessionDirsForCwd(r, d, homeOf(ctx))[0]!)).join(", ");
  return `no sessions for ${found.all ? "any project" : found.dirs.join(", ")} (looked in ${where}${found.all ? "" : " and inside the dirs"})`;
}
