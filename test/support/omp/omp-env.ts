// Where omp runs in the tests: a fast temporary folder and omp's environment
// (a throwaway HOME and agent dir). No vitest here: the real-VS-Code suites
// run omp with these too.

import { accessSync, constants, mkdtempSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * A temporary folder in memory when the machine has one with room (/dev/shm,
 * ≥ 256 MB free; containers often give it 64 MB): omp syncs every append to
 * disk, which makes writing sessions ten times slower on a disk.
 */
export function fastTempDir(prefix: string): string {
  let base = tmpdir();
  try {
    accessSync("/dev/shm", constants.W_OK);
    const { bavail, bsize } = statfsSync("/dev/shm");
    if (bavail * bsize >= 256 * 1024 * 1024) base = "/dev/shm";
  } catch {
    // no tmpfs: the OS temp folder
  }
  return mkdtempSync(join(base, prefix));
}

/** The environment omp runs in: a throwaway HOME, the agent dir, none of the user's omp profile switches. */
export function ompEnv(home: string, agentDir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|OMP_|PI_)/i.test(key) || key === "XDG_DATA_HOME" || key === "XDG_CONFIG_HOME" || key === "XDG_STATE_HOME") continue;
    env[key] = value;
  }
  return { ...env, HOME: home, PI_CODING_AGENT_DIR: agentDir, NO_COLOR: "1", ...extra };
}
