// What the globalSetup hands to the test files about the pi 1.5.2 oracle.

import type { Pi15Install } from "./install.js";

/** Set (to anything) for offline local runs: the pi 1.5 tests are skipped instead of failing. */
export const PI15_OPT_OUT_ENV = "PI_SESSIONS_SKIP_PI15";

/** The opt-out applies to local runs only: with `CI` set it is ignored, so CI never skips the pi 1.5 tests. */
export function pi15OptedOut(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(env[PI15_OPT_OUT_ENV]) && !env.CI;
}

export type Pi15Provided =
  | { install: Pi15Install; worker: string }
  | { error: string }
  | { optedOut: true };

declare module "vitest" {
  export interface ProvidedContext {
    pi15: Pi15Provided;
  }
}
