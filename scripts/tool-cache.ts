// The cache folder outside the repository where the test and VS Code tooling
// keeps what it installs once (code-server and its Node, pi 1.5.2, omp 18.3.4 and
// Bun): where it is, one installer at a time, npm run with a clean environment,
// and `npm pack` of a pinned package. Never used by the product.

import { execFile } from "node:child_process";
import { mkdir, rm, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** `$PI_SESSIONS_CACHE`, else `$PI_SESSIONS_CACHE_DIR`, else `$XDG_CACHE_HOME/pi-sessions`, else `~/.cache/pi-sessions`. */
export function toolCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PI_SESSIONS_CACHE) return env.PI_SESSIONS_CACHE;
  if (env.PI_SESSIONS_CACHE_DIR) return env.PI_SESSIONS_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "pi-sessions");
  return join(homedir(), ".cache", "pi-sessions");
}

export interface InstallLockOptions {
  /** A lock older than this is taken to be left by a killed run. */
  staleAfterMs: number;
  /** How often a waiting installer looks again. */
  pollMs: number;
}

/**
 * One installer at a time per cache and `name` (two test runs started together
 * on a fresh machine): the others wait for the lock folder to go, then find the
 * install done.
 */
export async function withInstallLock<T>(root: string, name: string, options: InstallLockOptions, work: () => Promise<T>): Promise<T> {
  const lock = join(root, name);
  await mkdir(root, { recursive: true });
  for (;;) {
    try {
      await mkdir(lock);
      break;
    } catch {
      const age = Date.now() - ((await stat(lock).catch(() => undefined))?.mtimeMs ?? Date.now());
      if (age > options.staleAfterMs) await rm(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, options.pollMs));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lock, { recursive: true, force: true });
  }
}

/**
 * The environment without what an enclosing `npm run` exported about the project
 * (its prefix would steer a nested npm into the repository; its user agent says
 * "node/v20"). `keepNpmConfig`: registry, proxy and cache settings (`npm_config_*`)
 * pass through; otherwise every `npm_*` variable goes.
 */
export function withoutNpmRunEnv(env: NodeJS.ProcessEnv, keepNpmConfig: boolean): NodeJS.ProcessEnv {
  const projectOnly = /^npm_(package_|lifecycle_|config_(local_prefix|global_prefix|prefix|user_agent)$)/i;
  const clean: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(env)) {
    if (key === "INIT_CWD" || key === "NODE") continue;
    if (keepNpmConfig ? projectOnly.test(key) : /^npm_/i.test(key)) continue;
    clean[key] = value;
  }
  return clean;
}

/** npm's error lines that say why (code, 404, network), else its first lines. */
function npmFailure(command: string, error: unknown): Error {
  const e = error as { stderr?: string; message: string };
  const lines = (e.stderr || e.message).split("\n").map((l) => l.trim()).filter(Boolean);
  const reasons = lines.filter((l) => /^npm error (code|errno|network|request to|404|notarget)/i.test(l) || /^npm ERR!/.test(l));
  return new Error(`npm ${command} failed: ${(reasons.length ? reasons : lines).slice(0, 3).join("; ")}`);
}

/** Runs npm quietly in `cwd` with the project's npm-run environment removed; returns its stdout. */
export async function npm(args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await run("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd,
      env: withoutNpmRunEnv(process.env, true),
      maxBuffer: 64 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    throw npmFailure(args.filter((a) => !a.startsWith("-")).slice(0, 2).join(" "), error);
  }
}

/** `npm pack name@version` into `dir` (no install scripts run); returns the tarball's path. */
export async function npmPack(spec: string, dir: string): Promise<string> {
  const stdout = await npm(["pack", spec, "--pack-destination", dir, "--json"], dir);
  return join(dir, (JSON.parse(stdout) as { filename: string }[])[0]!.filename.replace(/^@/, "").replace(/\//g, "-"));
}
