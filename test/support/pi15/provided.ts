// What the globalSetup hands to the test files about the pi 1.5.2 oracle.

import type { Pi15Install } from "./install.js";

/** Set (to anything) for offline local runs: the pi 1.5 tests are skipped instead of failing. */
export const PI15_OPT_OUT_ENV = "PI_SESSIONS_SKIP_PI15";

export type Pi15Provided =
  | { install: Pi15Install; worker: string }
  | { error: string }
  | { optedOut: true };

declare module "vitest" {
  export interface ProvidedContext {
    pi15: Pi15Provided;
  }
}
