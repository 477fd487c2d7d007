// vitest globalSetup: installs the pi 1.5.2 oracle once per run (a stat when it
// is already in the cache) and bundles its worker, then hands both to the test
// files (`inject("pi15")`). A failed install does not stop the other suites: it
// is handed on, and every pi 1.5 test then fails with it. Offline local runs may
// opt out with PI_SESSIONS_SKIP_PI15=1 (the pi 1.5 tests are then skipped, loudly;
// ignored when CI is set).

import type { TestProject } from "vitest/node";
import { ensurePi15 } from "./install.js";
import { PI15_OPT_OUT_ENV, pi15OptedOut, type Pi15Provided } from "./provided.js";
import { buildPi15Worker } from "./worker-bundle.js";

export default async function setup(project: TestProject): Promise<void> {
  let provided: Pi15Provided;
  if (process.env[PI15_OPT_OUT_ENV] && process.env.CI) {
    console.warn(`pi15 oracle: ${PI15_OPT_OUT_ENV} is ignored on CI (CI is set): the pi 1.5.2 tests run`);
  }
  if (pi15OptedOut()) {
    console.warn(`pi15 oracle: ${PI15_OPT_OUT_ENV} is set: the pi 1.5.2 differential tests are SKIPPED`);
    provided = { optedOut: true };
  } else {
    try {
      const [install, worker] = await Promise.all([ensurePi15(), buildPi15Worker()]);
      provided = { install, worker };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`pi15 oracle: install failed: ${message}`);
      provided = { error: message };
    }
  }
  project.provide("pi15", provided);
}
