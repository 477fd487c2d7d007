// Opening with `expectedEntries` (what the extension knows from a catalogue
// row) only reserves room in the index's columns: the session reads the same
// as without — every meta, the tree, the diagnostics — whether the count is
// exact, stale (too small, too large) or absurd, and after appends.
import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession, openSessionSync, refreshSession, reservedEntries, type LoadedSession } from "../../../src/core/session/open-session.js";

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "pi-sessions-open-reserved-"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FIXTURE = join(__dirname, "../../fixtures/pi-mono/large-session.jsonl");

function read(session: LoadedSession): unknown {
  const index = session.index;
  return {
    entries: index.entries.map((m) => ({ ...m })),
    leaf: index.leafId,
    roots: index.roots.map((m) => m.id),
    spend: index.totalSpend,
    messages: index.messageCount,
    activity: index.lastActivityTime,
    name: index.sessionName,
    labels: [...index.labels],
    diagnostics: session.diagnostics,
    bodies: Array.from({ length: index.size }, (_, i) => session.entryAt(index.at(i))),
  };
}

describe("openSession with expectedEntries", () => {
  it("reads exactly what a read without it gives, for any count, and after appends", async () => {
    const path = join(dir, "large.jsonl");
    copyFileSync(FIXTURE, path);
    const plain = openSessionSync(path);
    const n = plain.index.size;
    const expected = read(plain);
    const lines = readFileSync(FIXTURE, "utf8").trimEnd().split("\n").slice(1);
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.constantFrom(1, n - 1, n, n + 1, 10 * n, 1e9), fc.integer({ min: 1, max: 3 * n })), fc.integer({ min: 0, max: 3 }), async (count, appends) => {
        copyFileSync(FIXTURE, path);
        const sync = openSessionSync(path, { expectedEntries: count });
        const async = await openSession(path, { expectedEntries: count });
        expect(read(sync)).toEqual(expected);
        expect(read(async)).toEqual(expected);
        if (appends === 0) return;
        // Entries again under new ids, continuing the leaf: the columns grow past what was reserved.
        let parent = plain.index.leafId;
        const more: string[] = [];
        for (let k = 0; k < appends * 400; k++) {
          const entry = JSON.parse(lines[k % lines.length]!) as { id: string; parentId: string | null };
          entry.id = `again${k}`;
          entry.parentId = parent;
          parent = entry.id;
          more.push(JSON.stringify(entry));
        }
        appendFileSync(path, more.join("\n") + "\n");
        const grown = (await refreshSession(async)).session;
        expect(read(grown)).toEqual(read(openSessionSync(path)));
      }),
      { numRuns: 12 },
    );
  });

  it("reserves the count and an eighth more (at least 1,024), never more than the file's size allows", () => {
    expect(reservedEntries(undefined, 1e8)).toBeUndefined();
    expect(reservedEntries(0, 1e8)).toBeUndefined();
    expect(reservedEntries(100_000, 1e9)).toBe(112_500);
    expect(reservedEntries(10, 1e9)).toBe(1034);
    // A stale count for a file that shrank: no more than a line of 64 bytes per entry.
    expect(reservedEntries(100_000, 64_000)).toBe(1000);
    writeFileSync(join(dir, "empty.jsonl"), "");
    expect(openSessionSync(join(dir, "empty.jsonl"), { expectedEntries: 50 }).index.size).toBe(0);
  });
});
