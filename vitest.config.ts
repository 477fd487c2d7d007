import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // pi 1.5.2 + Node 22, and omp 18.3.4 + Bun, into the cache for the oracle tests (a stat when present).
    globalSetup: ["test/support/pi15/global-setup.ts", "test/support/omp/global-setup.ts"],
  },
});
