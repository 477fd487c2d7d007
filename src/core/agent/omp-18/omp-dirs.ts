// Where oh-my-pi (omp 18.3.4) keeps its agent dir, sessions and blobs, as its
// DirResolver (pi-utils dirs.ts) resolves them: the config root `~/.omp`
// (`$PI_CONFIG_DIR` names the folder instead of `.omp`), a profile's
// `profiles/<name>/agent` (`OMP_PROFILE`, else `PI_PROFILE`), else
// `$PI_CODING_AGENT_DIR` for the default profile, else `<root>/agent`; for the
// default agent dir on Linux and macOS an existing `$XDG_DATA_HOME/omp` holds
// `sessions/` and `blobs/` instead (XDG flattens `agent/`).

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

type Env = Readonly<Record<string, string | undefined>>;

export interface OmpDirOptions {
  env?: Env;
  home?: string;
  /** Whether a folder exists (tests); default `existsSync`. */
  exists?: (path: string) => boolean;
  platform?: NodeJS.Platform;
}

const PROFILE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const RESERVED_NAME = /^(?:CON|PRN|AUX|NUL|COM[0-9]|LPT[0-9])(?:\..*)?$/i;

/** omp's profile name from a variable's value: trimmed, "default" and "" mean none, an invalid name none (omp ignores it too). */
function profileName(value: string | undefined): string | undefined {
  const name = value?.trim();
  if (!name || name === "default") return undefined;
  if (name === "." || name === ".." || name.endsWith(".") || !PROFILE_NAME.test(name) || RESERVED_NAME.test(name)) return undefined;
  return name;
}

/** The active profile: `OMP_PROFILE` when set (even empty), else `PI_PROFILE`. */
export function ompProfile(env: Env = process.env): string | undefined {
  return profileName(env.OMP_PROFILE !== undefined ? env.OMP_PROFILE : env.PI_PROFILE);
}

/** `~/.omp` (or `~/$PI_CONFIG_DIR`), with the profile's `profiles/<name>` under it. */
export function ompConfigRoot(options: OmpDirOptions = {}): string {
  const env = options.env ?? process.env;
  const base = join(options.home ?? homedir(), env.PI_CONFIG_DIR || ".omp");
  const profile = ompProfile(env);
  return profile ? join(base, "profiles", profile) : base;
}

/** omp's agent dir: a profile's, else `$PI_CODING_AGENT_DIR` (resolved; ignored when it is `PI_PROFILE`'s own agent dir), else `<config root>/agent`. */
export function ompAgentDir(options: OmpDirOptions = {}): string {
  const env = options.env ?? process.env;
  const root = ompConfigRoot(options);
  if (ompProfile(env)) return join(root, "agent");
  const override = env.PI_CODING_AGENT_DIR;
  if (override) {
    const piProfile = profileName(env.PI_PROFILE);
    const base = join(options.home ?? homedir(), env.PI_CONFIG_DIR || ".omp");
    if (!(piProfile !== undefined && override === join(base, "profiles", piProfile, "agent"))) return resolve(override);
  }
  return join(root, "agent");
}

/**
 * The folder `sessions/` and `blobs/` live in for `agentDir`: `$XDG_DATA_HOME/omp`
 * (a profile's `…/omp/profiles/<name>`) when it exists and `agentDir` is omp's
 * default one, else `agentDir` itself.
 */
export function ompDataDir(agentDir: string, options: OmpDirOptions = {}): string {
  return ompXdgDir(agentDir, "XDG_DATA_HOME", options);
}

/**
 * The folder omp's per-session state (`custom-session-files/`, `terminal-sessions/`)
 * lives in for `agentDir`: `$XDG_STATE_HOME/omp` on the same terms as the data folder.
 */
export function ompStateDir(agentDir: string, options: OmpDirOptions = {}): string {
  return ompXdgDir(agentDir, "XDG_STATE_HOME", options);
}

function ompXdgDir(agentDir: string, variable: "XDG_DATA_HOME" | "XDG_STATE_HOME", options: OmpDirOptions): string {
  const env = options.env ?? process.env;
  const platform = options.platform ?? process.platform;
  const exists = options.exists ?? existsSync;
  const defaultAgentDir = join(ompConfigRoot(options), "agent");
  if (resolve(agentDir) !== defaultAgentDir || (platform !== "linux" && platform !== "darwin")) return agentDir;
  const xdg = env[variable];
  if (!xdg) return agentDir;
  const profile = ompProfile(env);
  const dir = profile ? join(xdg, "omp", "profiles", profile) : join(xdg, "omp");
  return exists(dir) ? dir : agentDir;
}

/** `<data>/sessions`: the root of omp's per-cwd session folders. */
export function ompSessionsRoot(agentDir: string, options: OmpDirOptions = {}): string {
  return join(ompDataDir(agentDir, options), "sessions");
}

/** `<data>/agent.db`: omp's SQLite store of its logins (API keys and OAuth tokens) and usage. */
export function ompAgentDbFile(agentDir: string, options: OmpDirOptions = {}): string {
  return join(ompDataDir(agentDir, options), "agent.db");
}

/** `<data>/history.db`: omp's prompt history and the titles its welcome screen lists (session_titles). */
export function ompHistoryDbFile(agentDir: string, options: OmpDirOptions = {}): string {
  return join(ompDataDir(agentDir, options), "history.db");
}

/** `<data>/blobs`: omp's content-addressed blob store (images, snapcompact frames). */
export function ompBlobsDir(agentDir: string, options: OmpDirOptions = {}): string {
  return join(ompDataDir(agentDir, options), "blobs");
}
