// Golden values with entries read by pi itself (parseSessionEntries + migrateSessionEntries).

import { readFileSync } from "node:fs";
import { beforeAll } from "vitest";
import { defineGoldenTests, GOLDEN_FIXTURES } from "../../support/golden-checks.js";
import { loadPiOracle, piEntries, type PiOracle } from "../../support/pi-oracle.js";

let oracle: PiOracle;
beforeAll(async () => {
  oracle = await loadPiOracle();
});

defineGoldenTests((name) => piEntries(oracle, readFileSync(new URL(name, GOLDEN_FIXTURES), "utf8")));
