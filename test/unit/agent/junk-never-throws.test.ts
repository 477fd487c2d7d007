// Bad input never crashes either version's semantics: pi 1.5.2's 14 files with
// fields replaced by junk (null, numbers, strings, arrays, objects, removed) at
// random, seeded, and every AgentSemantics function run on every leaf.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { semanticsFor, type PiVersion } from "../../../src/core/agent/index.js";
import type { SessionEntry } from "../../../src/core/session/format/types.js";
import { mutate } from "../../support/junk-mutation.js";
import { createSeededRandom } from "../../support/seeded-random.js";

const DIR = join(__dirname, "../../fixtures/pi-1.5");
const files = readdirSync(DIR).filter((f) => f.endsWith(".jsonl"));

function pathTo(entries: SessionEntry[], leaf: SessionEntry): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const path: SessionEntry[] = [];
  const seen = new Set<SessionEntry>();
  for (let e: SessionEntry | undefined = leaf; e && !seen.has(e); e = e.parentId ? byId.get(e.parentId) : undefined) {
    seen.add(e);
    path.unshift(e);
  }
  return path;
}

describe.each(["0.73", "1.5"] as PiVersion[])("pi %s semantics on junk", (version) => {
  const s = semanticsFor(version);
  it("never throws, on 14 files × 25 seeded mutations, at every leaf", () => {
    let runs = 0;
    for (const file of files) {
      const lines = readFileSync(join(DIR, file), "utf8").trim().split("\n").slice(1).map((l) => JSON.parse(l) as SessionEntry);
      for (let seed = 1; seed <= 25; seed++) {
        const rng = createSeededRandom(seed * 31 + file.length);
        const entries = lines.map((e) => mutate(e, rng, 0) as SessionEntry);
        for (const leaf of entries) {
          const path = pathTo(entries, leaf);
          const context = s.buildSessionContext(path);
          s.serializeConversation(s.convertToLlm(context.messages));
          for (const m of context.messages) s.estimateTokens(m);
          s.contextTokens(path);
          s.contextUsage(path);
          s.currentSystemMessage(path);
          for (const keepRecentTokens of [0, 500, 20000]) s.describePreparation(s.planCompaction(path, { enabled: true, reserveTokens: 16384, keepRecentTokens }));
          for (const budget of [0, 300]) s.prepareBranchEntries(path, budget);
          runs++;
        }
      }
    }
    expect(runs).toBeGreaterThan(1000);
  });
});
