// Version 1/2 files read as pi migrates them (migrateSessionEntries), with ids
// compared by position: pi's ids are random, ours deterministic.

import { createHash } from "node:crypto";
import { migrateSessionEntries, parseSessionEntries } from "@mariozechner/pi-coding-agent";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deterministicEntryId, migrateParsedLines } from "../../../src/core/session/format/migrate.js";
import { sessionFromBytes } from "../../../src/core/session/open/open-session.js";

type Obj = Record<string, unknown>;

/** Entries with ids replaced by positions, so two migrations can be compared. */
function byPosition(entries: Obj[]): Obj[] {
  const pos = new Map(entries.map((e, i) => [e.id, i]));
  const at = (id: unknown): unknown => (typeof id === "string" ? (pos.get(id) ?? `missing:${id}`) : id);
  return entries.map((e) => {
    const out: Obj = { ...e, id: at(e.id), parentId: at(e.parentId) };
    if ("firstKeptEntryId" in e) out.firstKeptEntryId = at(e.firstKeptEntryId);
    return out;
  });
}

function piMigrated(text: string): Obj[] {
  const entries = parseSessionEntries(text) as unknown as Obj[];
  migrateSessionEntries(entries as never);
  return entries.filter((e) => e.type !== "session");
}

const message = (role: string) =>
  fc.record({
    type: fc.constant("message"),
    timestamp: fc.constant("2025-01-01T00:00:00.000Z"),
    message: fc.record({ role: fc.constant(role), content: fc.string({ maxLength: 5 }), timestamp: fc.nat() }),
  });
const v1Line = fc.oneof(
  message("user"),
  message("assistant"),
  message("hookMessage"),
  fc.record({ type: fc.constant("thinking_level_change"), timestamp: fc.constant("t"), thinkingLevel: fc.constant("high") }),
  fc.record({
    type: fc.constant("compaction"),
    timestamp: fc.constant("t"),
    summary: fc.constant("s"),
    tokensBefore: fc.nat(),
    // Anywhere: the header (0), earlier or later entries, past the end, not an integer.
    firstKeptEntryIndex: fc.oneof(fc.integer({ min: -1, max: 14 }), fc.constant(1.5)),
  }),
  fc.record({ type: fc.constant("session"), id: fc.constant("extra"), timestamp: fc.constant("t"), cwd: fc.constant("/") }),
);
const v1File = fc
  .tuple(
    fc.constantFrom(undefined, 1, 2),
    fc.array(fc.oneof({ weight: 6, arbitrary: v1Line.map((v) => JSON.stringify(v)) }, { weight: 1, arbitrary: fc.constantFrom("{oops", "", "  ") }), {
      maxLength: 14,
    }),
  )
  .map(([version, lines]) => {
    const header: Obj = { type: "session", id: "0192f5a0-aaaa", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" };
    if (version !== undefined) header.version = version;
    // Version 2 entries already have ids and a chain (pi wrote them).
    const body =
      version === 2
        ? lines.map((l, i) => {
            try {
              const v = JSON.parse(l) as Obj;
              if (v.type === "session") return l;
              return JSON.stringify({ ...v, id: `v2id${i}`, parentId: i === 0 ? null : `v2id${i - 1}` });
            } catch {
              return l;
            }
          })
        : lines;
    return [JSON.stringify(header), ...body].join("\n") + "\n";
  });

describe("in-memory migration equals pi's migrateSessionEntries (ids by position)", () => {
  it("for random version 1 and 2 files, including bad lines that shift firstKeptEntryIndex", () => {
    fc.assert(
      fc.property(v1File, (text) => {
        const ours = sessionFromBytes(new TextEncoder().encode(text)).entries() as unknown as Obj[];
        expect(byPosition(ours)).toEqual(byPosition(piMigrated(text)));
      }),
      { numRuns: 1500 },
    );
  });

  it("keeps version 2 ids and renames the hookMessage role only", () => {
    const text = `${JSON.stringify({ type: "session", version: 2, id: "h", timestamp: "t", cwd: "/" })}
${JSON.stringify({ type: "message", id: "x1", parentId: null, timestamp: "t", message: { role: "hookMessage", content: "c", timestamp: 1 } })}
`;
    const s = sessionFromBytes(new TextEncoder().encode(text));
    expect(s.entries()).toEqual(piMigrated(text));
    expect(s.entry("x1")).toMatchObject({ id: "x1", message: { role: "custom" } });
  });
});

describe("deterministic ids", () => {
  const sha8 = (text: string): string => createHash("sha256").update(text).digest("hex").slice(0, 8);

  it("are the first 8 hex digits of sha256('<header id>:<entry index>')", () => {
    expect(deterministicEntryId("abc", 0, new Set())).toBe(sha8("abc:0"));
    expect(deterministicEntryId("abc", 41, new Set())).toBe(sha8("abc:41"));
  });

  it("skip ids already taken by hashing '<header id>:<entry index>:<attempt>'", () => {
    const taken = new Set([sha8("abc:3")]);
    expect(deterministicEntryId("abc", 3, taken)).toBe(sha8("abc:3:1"));
    taken.add(sha8("abc:3:1"));
    expect(deterministicEntryId("abc", 3, taken)).toBe(sha8("abc:3:2"));
  });

  it("number a version 1 file's entries by position, header excluded, malformed lines not counted", () => {
    const lines = [
      JSON.stringify({ type: "session", id: "hid", timestamp: "t", cwd: "/" }),
      JSON.stringify({ type: "message", timestamp: "t", message: { role: "user", content: "a", timestamp: 1 } }),
      "{not json",
      JSON.stringify({ type: "message", timestamp: "t", message: { role: "assistant", content: [], timestamp: 2 } }),
    ];
    const values = parseSessionEntries(lines.join("\n")) as unknown[];
    expect(migrateParsedLines(values)).toEqual({ migrated: true, fromVersion: 1 });
    expect((values as Obj[]).map((v) => [v.id, v.parentId])).toEqual([
      ["hid", undefined],
      [sha8("hid:0"), null],
      [sha8("hid:1"), sha8("hid:0")],
    ]);
  });

  it("leave version 3 alone", () => {
    const values: unknown[] = [{ type: "session", version: 3, id: "h" }, { type: "message", id: "keep", parentId: null }];
    expect(migrateParsedLines(values)).toEqual({ migrated: false, fromVersion: 3 });
    expect(values[1]).toEqual({ type: "message", id: "keep", parentId: null });
  });
});
