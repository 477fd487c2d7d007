// The 14 session files pi 1.5.2 wrote (test/fixtures/pi-1.5) through the session
// catalogue and LiveSessionFacts, fed line by line as pi wrote them: the context
// tokens equal pi 1.5.2's estimateProjectedContextTokens from expected.json.
// After a compaction no answer followed, pi's getContextUsage says "unknown";
// we show that same estimate (any usage is before the compaction, so pi's
// projected count is the pure estimate) and say so in the source. The same with
// the running estimate prepared ahead between pi's writes, wholly or one entry
// per write (so pi's context edits find it whole, or still partial).

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { pi15ContextTokenRule } from "../../../src/core/agent/index.js";
import { LiveSessionFacts } from "../../../src/core/live/live-facts.js";
import { openSession, refreshSession } from "../../../src/core/session/open/open-session.js";

const DIR = join(__dirname, "../../fixtures/pi-1.5");
const expected = JSON.parse(readFileSync(join(DIR, "expected.json"), "utf8")) as {
  files: Record<string, { leafId: string; estimateProjectedContextTokens: number }>;
};

interface Line {
  type: string;
  id?: string;
  parentId?: string | null;
  message?: { role?: string; stopReason?: string; usage?: Record<string, number> };
}

/** pi 1.5.2's getContextUsage is "unknown" here: a compaction on the branch and no answer with usage after it. */
function compactionWithoutAnswer(lines: Line[], leafId: string): boolean {
  const byId = new Map(lines.filter((l) => l.id).map((l) => [l.id!, l]));
  const branch: Line[] = [];
  for (let at = byId.get(leafId); at; at = at.parentId ? byId.get(at.parentId) : undefined) branch.unshift(at);
  const last = branch.map((l) => l.type).lastIndexOf("compaction");
  if (last < 0) return false;
  return !branch.slice(last + 1).some((l) => {
    const m = l.message;
    if (l.type !== "message" || m?.role !== "assistant" || m.stopReason === "aborted" || m.stopReason === "error" || !m.usage) return false;
    const u = m.usage;
    return (u.totalTokens || (u.input ?? 0) + (u.output ?? 0) + (u.cacheRead ?? 0) + (u.cacheWrite ?? 0)) > 0;
  });
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-fixtures15-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pi 1.5.2 fixtures through live facts and the catalogue", () => {
  for (const [name, want] of Object.entries(expected.files)) {
    it(name, async () => {
      const text = readFileSync(join(DIR, name), "utf8");
      const rawLines = text.split("\n").filter((l) => l.length > 0);
      const unknown = compactionWithoutAnswer(rawLines.map((l) => JSON.parse(l) as Line), want.leafId);
      const path = join(dir, name);
      const cache = join(dir, `cache-${name}`);
      // Header and first entry, then one pi write at a time: live facts and the catalogue carry their counts forward.
      writeFileSync(path, `${rawLines.slice(0, 2).join("\n")}\n`);
      let session = await openSession(path);
      const live = new LiveSessionFacts(session, pi15ContextTokenRule);
      const prepared = new LiveSessionFacts(session, pi15ContextTokenRule);
      const partly = new LiveSessionFacts(session, pi15ContextTokenRule);
      const prepareBetweenWrites = () => {
        prepared.prepareAhead(() => false);
        let chunks = 0;
        partly.prepareAhead(() => chunks++ >= 1, 1);
      };
      prepareBetweenWrites();
      const catalogue = await SessionCatalogue.open(cache, { defaultVersion: "1.5" });
      await catalogue.refresh(path);
      for (const line of rawLines.slice(2)) {
        appendFileSync(path, `${line}\n`);
        session = (await refreshSession(session)).session;
        live.update(session);
        expect(prepared.update(session)).toEqual(live.current);
        expect(partly.update(session)).toEqual(live.current);
        prepareBetweenWrites();
        await catalogue.refresh(path);
      }
      const row = (await catalogue.refresh(path))!;
      const facts = live.current;
      expect(facts.leafId).toBe(want.leafId);
      expect(facts.usage.tokens).toBe(want.estimateProjectedContextTokens);
      expect(prepared.current.usage.tokens).toBe(want.estimateProjectedContextTokens);
      expect(partly.current.usage.tokens).toBe(want.estimateProjectedContextTokens);
      expect(row.contextTokens).toBe(want.estimateProjectedContextTokens);
      expect(facts.usage.source === "estimate-after-compaction").toBe(unknown);
      expect(row.contextSource).toBe(facts.usage.source);
      // A 0.73 default changes nothing for a file pi 1.5 marked.
      if (row.pi1xMarker) {
        const as073 = await SessionCatalogue.open(join(dir, `cache073-${name}`), { defaultVersion: "0.73" });
        expect((await as073.refresh(path))!.contextTokens).toBe(row.contextTokens);
      }
    });
  }
});
