// A session's last activity is the newest of its entries' timestamps (pi's and
// ours) and the file's mtime, wherever it is asked: the catalogue row carried
// over appends, the row of a full read, the opened session's facts, and so Clean
// Up. Random appends by pi (old message timestamps, as a copied-in session has)
// and by us (label, rename, through the real writers) with random mtimes between.
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { rowFromSession, rowVersionPolicy } from "../../../src/core/catalogue/catalogue-row.js";
import { SessionCatalogue } from "../../../src/core/catalogue/session-catalogue.js";
import { proposeCleanup } from "../../../src/core/discovery/cleanup-proposal.js";
import { lastActivityMs } from "../../../src/core/discovery/last-activity.js";
import { LiveSessionFacts } from "../../../src/core/live/live-facts.js";
import { openSessionSync } from "../../../src/core/session/open/open-session.js";
import { choosePiVersion, semanticsFor } from "../../../src/core/agent/index.js";
import { renameSession } from "../../../src/core/write/rename-session.js";
import { setLabel } from "../../../src/core/write/set-label.js";
import { factsFromRow, sessionFacts, type FactsContext } from "../../../src/extension/session-facts.js";
import { FileModel } from "../../support/session-lines.js";

const root = mkdtempSync(join(tmpdir(), "last-activity-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.now();
const context: FactsContext = { agentDir: join(root, "agent"), trusted: true, overrides: {}, contextWindow: () => undefined };

type Append =
  | { by: "pi"; turns: number; mtimeDaysAgo: number }
  | { by: "us"; what: "label" | "rename"; daysAgo: number }
  | { by: "touch"; mtimeDaysAgo: number };

const append: fc.Arbitrary<Append> = fc.oneof(
  fc.record({ by: fc.constant("pi" as const), turns: fc.integer({ min: 1, max: 3 }), mtimeDaysAgo: fc.integer({ min: 0, max: 900 }) }),
  fc.record({ by: fc.constant("us" as const), what: fc.constantFrom("label" as const, "rename" as const), daysAgo: fc.integer({ min: 0, max: 900 }) }),
  fc.record({ by: fc.constant("touch" as const), mtimeDaysAgo: fc.integer({ min: 0, max: 900 }) }),
);

/** Every entry's timestamp in the file, the newest (ms), by a plain parse. */
function newestEntryOf(path: string): number {
  const lines = readFileSync(path, "utf8").trimEnd().split("\n").slice(1);
  return Math.max(0, ...lines.map((l) => Date.parse(JSON.parse(l).timestamp as string)));
}

let n = 0;
describe("last activity", () => {
  it("is the newest of the entries' timestamps and the mtime, in rows carried over appends, full reads and the opened session's facts; Clean Up judges by it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(append, { minLength: 1, maxLength: 6 }), async (appends) => {
        const path = join(root, `s${++n}.jsonl`);
        const model = new FileModel();
        model.lines.push(model.line({ kind: "user", parent: "leaf", pick: 0, text: "q", usage: 1 }));
        model.lines.push(model.line({ kind: "assistant", parent: "leaf", pick: 0, text: "a", usage: 100 }));
        writeFileSync(path, model.text());
        const old = new Date(NOW - 800 * DAY);
        utimesSync(path, old, old);
        const catalogue = await SessionCatalogue.open(join(root, `cache${n}`));
        await catalogue.list([path]);
        for (const a of appends) {
          if (a.by === "pi") {
            model.counter += 1;
            const lines: string[] = [];
            for (let t = 0; t < a.turns; t++) {
              lines.push(model.line({ kind: "user", parent: "leaf", pick: t, text: `more ${t}`, usage: 1 }));
              lines.push(model.line({ kind: "assistant", parent: "leaf", pick: t, text: `answer ${t}`, usage: 100 + t }));
            }
            appendFileSync(path, lines.map((l) => `${l}\n`).join(""));
            const when = new Date(NOW - a.mtimeDaysAgo * DAY);
            utimesSync(path, when, when);
          } else if (a.by === "us") {
            const session = openSessionSync(path);
            const now = () => new Date(NOW - a.daysAgo * DAY);
            if (a.what === "label") setLabel({ session, targetId: session.index.leafId!, label: "kept", now });
            else renameSession({ session, name: "renamed", now });
            const leaf = JSON.parse(readFileSync(path, "utf8").trimEnd().split("\n").at(-1)!);
            model.lines.push(JSON.stringify(leaf));
            model.ids.push(leaf.id as string);
          } else {
            const when = new Date(NOW - a.mtimeDaysAgo * DAY);
            utimesSync(path, when, when);
          }
          const st = statSync(path);
          const expected = Math.max(newestEntryOf(path), st.mtimeMs);
          const carried = (await catalogue.refresh(path))!;
          expect(lastActivityMs(carried.newestEntry, carried.mtimeMs)).toBe(expected);
          // A Date holds whole ms (the mtime has a fraction).
          expect(Math.abs(factsFromRow(carried, context).lastActivity.getTime() - expected)).toBeLessThan(1);
          const session = openSessionSync(path);
          const full = rowFromSession(session, st.size, st.mtimeMs, rowVersionPolicy({ defaultVersion: "0.73" }))!.row;
          expect(full.newestEntry).toBe(carried.newestEntry);
          const choice = choosePiVersion({ session });
          const facts = sessionFacts(session, new LiveSessionFacts(session, semanticsFor(choice.version).contextTokenRule).current, choice, context, { mtime: st.mtime, size: st.size });
          expect(Math.abs(facts.lastActivity.getTime() - expected)).toBeLessThan(1);
          // Clean Up (30 days unused): proposed exactly when nothing (no entry, no write) is newer than that.
          const proposed = proposeCleanup([{ path, size: st.size, lastActivity: facts.lastActivity, conversationMessages: 2 }], { empty: false, olderThanDays: 30, now: new Date(NOW) });
          expect(proposed.length === 1).toBe(NOW - facts.lastActivity.getTime() > 30 * DAY);
          if (a.by === "us" && a.daysAgo < 30) expect(proposed).toEqual([]);
        }
      }),
      { numRuns: 40 },
    );
  });
});
