// Reading omp 18.3.4's files: the title slot peeled off line 1, the header on the
// next parsed line, omp's entry types known, omp recognised from the file alone,
// and truthful diagnostics. Facts: the five files omp wrote (test/fixtures/omp-18)
// and expected/edge-cases.json (what omp's loader made of unexpected first lines).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openSession, sessionFromBytes } from "../../../src/core/session/open/open-session.js";
import { sessionOmpMarker } from "../../../src/core/session/dialect/omp-markers.js";
import { sessionPi1xMarker } from "../../../src/core/session/dialect/pi1x-markers.js";
import { OMP_FIXTURES, OMP_FIXTURES_DIR, readOmpExpected } from "../../support/omp/expected-fixtures.js";

const fixture = (name: string) => join(OMP_FIXTURES_DIR, `${name}.jsonl`);
const open = (bytes: Buffer | string, path?: string) => sessionFromBytes(typeof bytes === "string" ? Buffer.from(bytes) : bytes, path);

const slotLine = (title = "", source?: "auto" | "user") => {
  const base = source ? { type: "title", v: 1, title, source, updatedAt: "2026-11-23T22:32:57.180Z" } : { type: "title", v: 1, title, updatedAt: "2026-11-23T22:32:57.180Z" };
  const unpadded = JSON.stringify({ ...base, pad: "" }) + "\n";
  return JSON.stringify({ ...base, pad: " ".repeat(256 - Buffer.byteLength(unpadded)) }) + "\n";
};
const header = (id = "01a20a8a-7a5c-7328-b37d-344f0d311926") => JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-11-23T22:32:57.180Z", cwd: "/w" }) + "\n";
const user = (id: string, parentId: string | null, text = "hi") =>
  JSON.stringify({ type: "message", id, parentId, timestamp: "2026-11-23T22:33:00.000Z", message: { role: "user", content: text, timestamp: 1 } }) + "\n";

describe("omp's files read as omp reads them", () => {
  for (const name of OMP_FIXTURES) {
    it(`${name}: header, slot, entries, leaf as omp's loader has them`, () => {
      const expected = readOmpExpected(name);
      const session = open(readFileSync(fixture(name)), fixture(name));
      expect(session.header).toEqual(expected.load.header);
      expect(session.headerMissing).toBe(false);
      expect(session.titleSlot === null ? null : { title: session.titleSlot.title, updatedAt: session.titleSlot.updatedAt }).toEqual(expected.load.titleSlot ?? null);
      expect(session.index.size).toBe(expected.open.entries);
      expect(session.index.leafId).toBe(expected.open.leafId);
      // No warning or error: every entry type omp writes is known.
      expect(session.diagnostics.filter((d) => d.severity !== "info")).toEqual([]);
      expect(session.diagnostics.filter((d) => d.code === "unknown-entry-type")).toEqual([]);
      // Every one of them is recognised as omp's from the file alone.
      expect(sessionOmpMarker(session)).toBeDefined();
    });
  }

  it("the extension's skimming read gives the same index, slot and header as the exact read", async () => {
    for (const name of OMP_FIXTURES) {
      const exact = open(readFileSync(fixture(name)), fixture(name));
      const skimmed = await openSession(fixture(name), { skim: true });
      expect(skimmed.header).toEqual(exact.header);
      expect(skimmed.titleSlot).toEqual(exact.titleSlot);
      expect(skimmed.index.entries).toEqual(exact.index.entries);
      expect(skimmed.pathTo().map((e) => e.id)).toEqual(exact.pathTo().map((e) => e.id));
    }
  });

  it("the pi file omp resumed is omp's by omp's own entries (no slot)", () => {
    const session = open(readFileSync(fixture("pi073-digest-compaction-resumed-by-omp")));
    expect(session.titleSlot).toBeNull();
    const marker = sessionOmpMarker(session)!;
    expect(marker.what).toMatch(/session_exit|contextSnapshot/);
    expect(marker.line).toBeGreaterThan(160);
  });

  it("a pi file without omp's marks is not omp's", () => {
    const text = readFileSync(fixture("pi073-digest-compaction-resumed-by-omp"), "utf8").split("\n").slice(0, 167).join("\n") + "\n";
    const session = open(text);
    expect(sessionOmpMarker(session)).toBeUndefined();
    expect(sessionPi1xMarker(session)).toBeUndefined();
  });

  it.each([
    ["reset_boundary", { type: "reset_boundary" }],
    ["model_change with model", { type: "model_change", model: "fake/x" }],
    ["compaction with method", { type: "compaction", summary: "s", firstKeptEntryId: "a", tokensBefore: 1, method: "soft" }],
    ["developer message", { type: "message", message: { role: "developer", content: "x" } }],
    ["custom tool_execution_start", { type: "custom", customType: "tool_execution_start" }],
    ["title_change", { type: "title_change", title: "t", source: "user" }],
  ])("%s marks a slot-less file as omp's", (_what, entry) => {
    const line = JSON.stringify({ id: "b", parentId: "a", timestamp: "2026-11-23T22:33:00.000Z", ...entry }) + "\n";
    const session = open(header() + user("a", null) + line);
    expect(sessionOmpMarker(session)?.entryId).toBe("b");
  });

  it("a titled slot is the title; the slot's bytes are never an entry", () => {
    const session = open(slotLine("My work", "user") + header() + user("a", null));
    expect(session.titleSlot).toMatchObject({ title: "My work", source: "user" });
    expect(session.titleSlot!.location).toMatchObject({ line: 1, offset: 0, length: 255 });
    expect(session.header?.id).toBe("01a20a8a-7a5c-7328-b37d-344f0d311926");
    expect(session.index.size).toBe(1);
  });

  it("an invalid slot (bad source) is not peeled: the file has no header, as omp says", () => {
    const bad = JSON.stringify({ type: "title", v: 1, title: "", source: "robot", updatedAt: "x", pad: "" }) + "\n";
    const session = open(bad + header() + user("a", null));
    expect(session.titleSlot).toBeNull();
    expect(session.headerMissing).toBe(true);
  });

  it("slot then a non-header object: omp would refuse to resume (said so, nothing else claimed)", () => {
    const session = open(slotLine() + user("a", null));
    expect(session.headerMissing).toBe(true);
    const d = session.diagnostics.find((x) => x.code === "missing-header")!;
    expect(d.message).toContain("omp would refuse to resume");
    expect(d.message).not.toContain("overwrite");
    expect(d.line).toBe(2);
  });

  it("a slot only: omp would start a new session here", () => {
    const session = open(slotLine());
    expect(session.header).toBeNull();
    expect(session.diagnostics.find((x) => x.code === "slot-only")?.message).toContain("omp would start a new session here");
  });

  it.each([
    ["garbage first line", (t: string) => "not json at all\n" + t],
    ["BOM", (t: string) => "\uFEFF" + t],
    ["blank line first", (t: string) => "\n" + t],
    ["CRLF line ends", (t: string) => t.replace(/\n/g, "\r\n")],
  ])("%s before a pi v3 file: the header is still found (as omp finds it)", (_what, change) => {
    const text = readFileSync(fixture("pi073-digest-compaction-resumed-by-omp"), "utf8");
    const session = open(change(text));
    const expected = readOmpExpected("pi073-digest-compaction-resumed-by-omp");
    expect(session.header?.id).toBe(expected.load.header.id);
    expect(session.index.leafId).toBe(expected.open.leafId);
    expect(session.index.size).toBe(expected.open.entries);
  });
});
