// Where pi-sessions keeps what is expensive to recompute (the session catalogue,
// the search index, analysis caches). Never pi's own folders: everything here can
// be deleted at any time and is rebuilt from the session files.
import { homedir } from "node:os";
import { join } from "node:path";

/** `$PI_SESSIONS_CACHE_DIR`, else `$XDG_CACHE_HOME/pi-sessions`, else `~/.cache/pi-sessions`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PI_SESSIONS_CACHE_DIR) return env.PI_SESSIONS_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "pi-sessions");
  return join(homedir(), ".cache", "pi-sessions");
}
