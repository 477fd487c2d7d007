// Where omp keeps its agent folder and blob store by default (pi-utils dirs.ts,
// spec §1.1): `~/.omp/agent` (`$PI_CONFIG_DIR` names `.omp`); a profile
// (`$OMP_PROFILE`, else `$PI_PROFILE`) → `~/.omp/profiles/<p>/agent`;
// `$PI_CODING_AGENT_DIR` overrides the default profile's; blobs under
// `$XDG_DATA_HOME/omp/blobs` when that folder's `omp` exists (default profile,
// default agent dir, not Windows).

import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export interface OmpDirs {
  agentDir: string;
  blobsDir: string;
}

export function defaultOmpDirs(env: Readonly<Record<string, string | undefined>> = process.env, home: string = homedir()): OmpDirs {
  const configRoot = join(home, env.PI_CONFIG_DIR || ".omp");
  const profile = env.OMP_PROFILE || env.PI_PROFILE || undefined;
  if (profile) {
    const agentDir = join(configRoot, "profiles", profile, "agent");
    return { agentDir, blobsDir: join(agentDir, "blobs") };
  }
  if (env.PI_CODING_AGENT_DIR) {
    const agentDir = resolve(env.PI_CODING_AGENT_DIR);
    return { agentDir, blobsDir: join(agentDir, "blobs") };
  }
  const agentDir = join(configRoot, "agent");
  const xdg = env.XDG_DATA_HOME;
  if (xdg && process.platform !== "win32" && existsSync(join(xdg, "omp"))) return { agentDir, blobsDir: join(xdg, "omp", "blobs") };
  return { agentDir, blobsDir: join(agentDir, "blobs") };
}

/** The blob store of an explicit agent dir. */
export function ompDirsOf(agentDir: string): OmpDirs {
  return { agentDir, blobsDir: join(agentDir, "blobs") };
}
