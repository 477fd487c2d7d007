// What the globalSetup hands to the test files about the omp 18.3.4 oracle.

import type { OmpInstall } from "./install.js";

/** Set (to anything) for offline local runs: the omp tests are skipped instead of failing. */
export const OMP_OPT_OUT_ENV = "PI_SESSIONS_SKIP_OMP";

/** The opt-out applies to local runs only: with `CI` set it is ignored, so CI never skips the omp tests. */
export function ompOptedOut(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env[OMP_OPT_OUT_ENV]) && !env.CI;
}

export type OmpProvided =
  | { install: OmpInstall; worker: string }
  | { error: string }
  | { optedOut: true };

declare module "vitest" {
  export interface ProvidedContext {
    omp: OmpProvided;
  }
}
