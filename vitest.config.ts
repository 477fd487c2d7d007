import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // pi 1.5.2 + Node 22 into the cache for the pi 1.5 oracle tests (a stat when present).
    globalSetup: ["test/support/pi15/global-setup.ts"],
  },
});
