// vitest globalSetup: installs the omp 18.3.4 oracle (Bun + omp from npm) once
// per run (a stat when it is already in the cache) and bundles its worker, then
// hands both to the test files (`inject("omp")`). A failed install does not stop
// the other suites: it is handed on, and every omp test then fails with it.
// Offline local runs may opt out with PI_SESSIONS_SKIP_OMP=1 (the omp tests are
// then skipped, loudly; ignored when CI is set).

import type { TestProject } from "vitest/node";
import { ensureOmp } from "./install.js";
import { OMP_OPT_OUT_ENV, ompOptedOut, type OmpProvided } from "./provided.js";
import { buildOmpWorker } from "./worker-bundle.js";

export default async function setup(project: TestProject): Promise<void> {
  let provided: OmpProvided;
  if (process.env[OMP_OPT_OUT_ENV] && process.env.CI) {
    console.warn(`omp oracle: ${OMP_OPT_OUT_ENV} is ignored on CI (CI is set): the omp 18.3.4 tests run`);
  }
  if (ompOptedOut()) {
    console.warn(`omp oracle: ${OMP_OPT_OUT_ENV} is set: the omp 18.3.4 oracle tests are SKIPPED`);
    provided = { optedOut: true };
  } else {
    try {
      const [install, worker] = await Promise.all([ensureOmp(), buildOmpWorker()]);
      provided = { install, worker };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      console.error(`omp oracle: install failed: ${message}`);
      provided = { error: message };
    }
  }
  project.provide("omp", provided);
}
