// Golden values with entries read by our session reader (in-memory migration,
// deterministic ids); the fixture files must stay byte-for-byte unchanged.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, expect } from "vitest";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { defineGoldenTests, GOLDEN_FIXTURES } from "../../support/golden-checks.js";

const NAMES = ["large-session.jsonl", "before-compaction.jsonl"];
const before = new Map<string, Buffer>();
beforeAll(() => {
  for (const name of NAMES) before.set(name, readFileSync(new URL(name, GOLDEN_FIXTURES)));
});
afterAll(() => {
  for (const name of NAMES) expect(readFileSync(new URL(name, GOLDEN_FIXTURES)).equals(before.get(name)!)).toBe(true);
});

defineGoldenTests((name) => {
  const session = openSessionSync(fileURLToPath(new URL(name, GOLDEN_FIXTURES)));
  expect(session.needsMigration).toBe(true);
  const entries = session.entries();
  expect(session.pathTo().map((e) => e.id)).toEqual(entries.map((e) => e.id));
  return entries;
});
