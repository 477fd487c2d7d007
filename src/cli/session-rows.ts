// The catalogue rows of the sessions `list` and `usage` are asked about: pi's
// folder of each project dir (or every project's with --all) and session files
// inside the dirs, read through the session catalogue kept in pi-sessions'
// cache folder (so a second run reads only what changed).

import { realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import { defaultCacheDir } from "../core/cache-dir";
import type { CatalogueRow } from "../core/catalogue/catalogue-row";
import { SessionCatalogue } from "../core/catalogue/session-catalogue";
import { choosePiVersion } from "../core/agent";
import type { PiVersion } from "../core/session/format/pi-version";
import { findSessionFiles, jsonlFilesIn, piSessionDirForCwd, piSessionFolders } from "../core/discovery/discover";
import { boolFlag } from "./args";
import type { CommandContext } from "./command";
import { warn } from "./output";
import { resolveAgentDir, resolveCwd } from "./session-input";
import { piVersionFlag } from "./session-semantics";

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

export interface SessionRows {
  rows: CatalogueRow[];
  agentDir: string;
  dirs: string[];
  all: boolean;
  /** The version sessions without a pi 1.x marker are read with. */
  defaultVersion: PiVersion;
  versionOf: (marker: CatalogueRow["pi1xMarker"] | null) => PiVersion;
}

/** The rows of the command's DIR… (default --cwd) or every project (--all); the catalogue saved after. */
export async function sessionRows(ctx: CommandContext): Promise<SessionRows> {
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
  return { rows, agentDir, dirs, all, defaultVersion: catalogue.defaultVersion, versionOf };
}

/** Where `list` and `usage` looked, for their "no sessions" line. */
export function lookedIn(found: SessionRows): string {
  const where = found.all ? join(found.agentDir, "sessions") : found.dirs.map((d) => piSessionDirForCwd(d, found.agentDir)).join(", ");
  return `no sessions for ${found.all ? "any project" : found.dirs.join(", ")} (looked in ${where}${found.all ? "" : " and inside the dirs"})`;
}
